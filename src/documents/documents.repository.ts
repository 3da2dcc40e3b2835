import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { companyCondition } from '../access/company-rule';
import { SqlExample } from '../database/sql-example';
import { TenantDatabase } from '../tenancy/tenant-database';
import { DocumentContent, DocumentStatus } from './entities/document-content.entity';

/** The columns of a document row (`d`), without its text. */
export const DOCUMENT_COLUMNS = `d.id, d.company_id AS "companyId", d.file_id AS "fileId", d.status,
  d.error_message AS "errorMessage", d.text_length AS "textLength", d.word_count AS "wordCount",
  d.page_count AS "pageCount", d.ocr_confidence AS "ocrConfidence", d.ocr_language AS "ocrLanguage",
  d.processing_duration_ms AS "processingDurationMs", d.processing_started_at AS "processingStartedAt",
  d.processed_at AS "processedAt", d.indexed_for_search AS "indexedForSearch", d.file_type AS "fileType",
  d.created_at AS "createdAt", d.pages_processed AS "pagesProcessed"`;

/** Which documents a read selects; `companyId` is the caller's company scope (null: every company). */
export interface DocumentFilter {
  companyId: number | null;
  status?: DocumentStatus;
  id?: number;
  fileId?: number;
}

/** A document row as read (camelCase columns), with a preview or its full text. */
export type DocumentRecord = DocumentContent & { preview?: string | null };

export interface StatusCounts {
  pending: number;
  processing: number;
  completed: number;
  failed: number;
  skipped: number;
  total: number;
  characters: number;
  indexed: number;
}

/** The document a processing run starts from. */
export interface RunStart {
  company_id: number;
  file_id: number;
  status: string;
}

/** What a successful extraction stores. */
export interface Extracted {
  text: string;
  textLength: number;
  wordCount: number;
  pages: number;
  /** Four decimals, as text. */
  confidence: string;
  language: string;
  durationMs: number;
  /** The text search configuration of the language, and the text it indexes. */
  searchConfig: string;
  indexedText: string;
}

export type NewDocumentContent = Pick<DocumentContent, 'companyId' | 'fileId' | 'status' | 'ocrLanguage'> &
  Partial<Pick<DocumentContent, 'errorMessage' | 'processedAt'>>;

function where(filter: DocumentFilter, params: unknown[]): string {
  const parts: string[] = [];
  const add = (sql: (p: number) => string, value: unknown) => {
    params.push(value);
    parts.push(sql(params.length));
  };
  if (filter.companyId !== null) add((p) => companyCondition('d.company_id', p), filter.companyId);
  if (filter.status) add((p) => `d.status = $${p}`, filter.status.toLowerCase());
  if (filter.id !== undefined) add((p) => `d.id = $${p}`, filter.id);
  if (filter.fileId !== undefined) add((p) => `d.file_id = $${p}`, filter.fileId);
  return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
}

/** snake_case row keys to camelCase (rows of `SELECT *`). */
function camel(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]),
  );
}

const FILTER: DocumentFilter = { companyId: 2, status: 'COMPLETED' };

/** The document analysis records (`document_contents`) of the current schema. */
@Injectable()
export class DocumentsRepository {
  constructor(private readonly db: TenantDatabase) {}

  /** One page with a 500-character preview of each text, and the total matches on every row. */
  @SqlExample((c) => [c.manager, FILTER, 'd.created_at', 'DESC', 20, 0])
  @SqlExample((c) => [c.manager, { companyId: null }, 'd.id', 'ASC', 20, 40])
  page(
    m: EntityManager,
    filter: DocumentFilter,
    column: string,
    dir: 'ASC' | 'DESC',
    size: number,
    offset: number,
  ): Promise<(DocumentRecord & { total: string })[]> {
    const params: unknown[] = [];
    return m.query(
      `SELECT ${DOCUMENT_COLUMNS}, left(d.extracted_text, 500) AS preview, count(*) OVER () AS total
    FROM document_contents d ${where(filter, params)}
    ORDER BY ${column} ${dir} NULLS LAST, d.id ${dir} LIMIT ${size} OFFSET ${offset}`,
      params,
    );
  }

  @SqlExample((c) => [c.manager, FILTER])
  async count(m: EntityManager, filter: DocumentFilter): Promise<number> {
    const params: unknown[] = [];
    const [c] = await m.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM document_contents d ${where(filter, params)}`,
      params,
    );
    return c.n;
  }

  /** The first document the filter selects, with its full text or a preview. */
  @SqlExample((c) => [c.manager, { companyId: 2, fileId: 11 }, false])
  @SqlExample((c) => [c.manager, { companyId: null, id: 5 }, true])
  async findOne(
    m: EntityManager,
    filter: DocumentFilter,
    fullText: boolean,
  ): Promise<DocumentRecord | undefined> {
    const params: unknown[] = [];
    const text = fullText ? 'd.extracted_text AS "extractedText"' : 'left(d.extracted_text, 500) AS preview';
    const [row] = await m.query<DocumentRecord[]>(
      `SELECT ${DOCUMENT_COLUMNS}, ${text} FROM document_contents d ${where(filter, params)} LIMIT 1`,
      params,
    );
    return row;
  }

  /** A whole document by id (`SELECT *`), in the caller's transaction. */
  @SqlExample((c) => [c.manager, 5])
  async byId(tx: EntityManager, id: number): Promise<DocumentRecord | undefined> {
    const found = await tx.query<Record<string, unknown>[]>('SELECT * FROM document_contents WHERE id = $1', [
      id,
    ]);
    return found.map(camel)[0] as unknown as DocumentRecord | undefined;
  }

  /** Counts per status of one company (named in the path). */
  @SqlExample((c) => [c.manager, 2])
  async statusCounts(m: EntityManager, companyId: number): Promise<StatusCounts> {
    const [c] = await m.query<Record<keyof StatusCounts, number | string>[]>(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
            count(*) FILTER (WHERE status = 'processing')::int AS processing,
            count(*) FILTER (WHERE status = 'completed')::int AS completed,
            count(*) FILTER (WHERE status = 'failed')::int AS failed,
            count(*) FILTER (WHERE status = 'skipped')::int AS skipped,
            count(*)::int AS total,
            coalesce(sum(text_length), 0)::bigint AS characters,
            count(*) FILTER (WHERE indexed_for_search)::int AS indexed
       FROM document_contents WHERE company_id = $1`,
      [companyId],
    );
    return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, Number(v)])) as unknown as StatusCounts;
  }

  /** The document a run starts from, locked until the transaction ends. */
  @SqlExample((c) => [c.manager, 5])
  async lockForRun(tx: EntityManager, id: number): Promise<RunStart | undefined> {
    const [row] = await tx.query<RunStart[]>(`SELECT * FROM document_contents WHERE id = $1 FOR UPDATE`, [
      id,
    ]);
    return row;
  }

  @SqlExample((c) => [c.manager, 5])
  async startRun(tx: EntityManager, id: number): Promise<void> {
    await tx.query(
      `UPDATE document_contents SET status = 'processing', processing_started_at = now(), pages_processed = 0,
           updated_at = now()
         WHERE id = $1`,
      [id],
    );
  }

  /** Pages read so far, shown while PROCESSING. */
  @SqlExample((c) => [c.manager, 5, 12, 3])
  async progress(m: EntityManager, id: number, pages: number, done: number): Promise<void> {
    await m.query(
      `UPDATE document_contents SET page_count = $2, pages_processed = $3, updated_at = now()
         WHERE id = $1 AND status = 'processing'`,
      [id, pages, done],
    );
  }

  /** COMPLETED with the text, its counts and its search vector. */
  @SqlExample((c) => [
    c.manager,
    5,
    {
      text: 'Pump 7 inspected',
      textLength: 16,
      wordCount: 3,
      pages: 1,
      confidence: '0.9312',
      language: 'en',
      durationMs: 840,
      searchConfig: 'english',
      indexedText: 'Pump 7 inspected',
    },
  ])
  async completed(tx: EntityManager, id: number, e: Extracted): Promise<void> {
    await tx.query(
      `UPDATE document_contents SET status = 'completed', error_message = NULL, extracted_text = $2,
             text_length = $3, word_count = $4, page_count = $5, pages_processed = $5, ocr_confidence = $6,
             ocr_language = $7,
             processing_duration_ms = $8, processed_at = now(), indexed_for_search = true,
             search_vector = to_tsvector($9::regconfig, $10), updated_at = now()
           WHERE id = $1`,
      [
        id,
        e.text,
        e.textLength,
        e.wordCount,
        e.pages,
        e.confidence,
        e.language,
        e.durationMs,
        e.searchConfig,
        e.indexedText,
      ],
    );
  }

  /** FAILED with the reason. */
  @SqlExample((c) => [c.manager, 5, 'Unreadable PDF', 'en', 120])
  async failed(tx: EntityManager, id: number, message: string, language: string, durationMs: number) {
    await tx.query(
      `UPDATE document_contents SET status = 'failed', error_message = $2, ocr_language = $3,
             processing_duration_ms = $4, processed_at = now(), indexed_for_search = false,
             search_vector = NULL, updated_at = now()
           WHERE id = $1`,
      [id, message, language, durationMs],
    );
  }

  /** Sets the documents back to PENDING. */
  @SqlExample((c) => [c.manager, [5, 6]])
  async requeue(tx: EntityManager, ids: number[]): Promise<void> {
    await tx.query(
      `UPDATE document_contents SET status = 'pending', error_message = NULL, processing_started_at = NULL,
           processed_at = NULL, updated_at = now() WHERE id = ANY($1::int[])`,
      [ids],
    );
  }

  /** The FAILED documents of one company (named in the path). */
  @SqlExample([2])
  async failedIds(companyId: number): Promise<number[]> {
    const rows = await this.db.run<{ id: number }[]>((m) =>
      m.query(`SELECT id FROM document_contents WHERE company_id = $1 AND status = 'failed'`, [companyId]),
    );
    return rows.map((r) => r.id);
  }

  @SqlExample((c) => [c.manager, { companyId: 2, fileId: 11, status: 'pending', ocrLanguage: 'en' }])
  insert(tx: EntityManager, doc: NewDocumentContent): Promise<DocumentContent> {
    return tx.save(tx.create(DocumentContent, doc));
  }

  /** Removes a document's stored content (text and search entry). */
  @SqlExample((c) => [c.manager, 5])
  async delete(tx: EntityManager, id: number): Promise<void> {
    await tx.query('DELETE FROM document_contents WHERE id = $1', [id]);
  }
}
