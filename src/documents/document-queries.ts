import { EntityManager } from 'typeorm';
import { FileRecords } from '../files';
import { DocumentRow } from './document-view';
import { DocumentStatus } from './entities/document-content.entity';

/** Sortable fields of document lists (JSON name → column; the file's name is the files'). */
export const SORTS: Record<string, string | ((files: FileRecords) => string)> = {
  id: 'd.id',
  createdAt: 'd.created_at',
  processedAt: 'd.processed_at',
  status: 'd.status',
  fileName: (files) => files.nameOf('d.file_id'),
  textLength: 'd.text_length',
  wordCount: 'd.word_count',
  ocrConfidence: 'd.ocr_confidence',
};

/** The columns of a document row (`d`), without its text. */
export const DOCUMENT_COLUMNS = `d.id, d.company_id AS "companyId", d.file_id AS "fileId", d.status,
  d.error_message AS "errorMessage", d.text_length AS "textLength", d.word_count AS "wordCount",
  d.page_count AS "pageCount", d.ocr_confidence AS "ocrConfidence", d.ocr_language AS "ocrLanguage",
  d.processing_duration_ms AS "processingDurationMs", d.processing_started_at AS "processingStartedAt",
  d.processed_at AS "processedAt", d.indexed_for_search AS "indexedForSearch", d.file_type AS "fileType",
  d.created_at AS "createdAt", d.pages_processed AS "pagesProcessed"`;

/** The file fields of a document row. */
type FileFields = Pick<DocumentRow, 'fileName' | 'mimeType' | 'fileSizeBytes' | 'fileExt'>;

/** Each row with its file's name, type, size and extension; a row whose file is gone is left out. */
export async function withFiles<T extends { fileId: number }>(
  m: EntityManager,
  files: FileRecords,
  rows: T[],
): Promise<(T & FileFields)[]> {
  const byId = await files.byId(
    m,
    rows.map((r) => r.fileId),
  );
  return rows.flatMap((row) => {
    const file = byId.get(Number(row.fileId));
    if (!file) return [];
    return [
      { ...row, fileName: file.name, mimeType: file.mime, fileSizeBytes: file.size, fileExt: file.ext },
    ];
  });
}

export interface DocumentFilter {
  companyId: number | null;
  status?: DocumentStatus;
  id?: number;
  fileId?: number;
}

function where(filter: DocumentFilter, params: unknown[]): string {
  const parts: string[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    parts.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.companyId !== null) add('d.company_id = ?', filter.companyId);
  if (filter.status) add('d.status = ?', filter.status.toLowerCase());
  if (filter.id !== undefined) add('d.id = ?', filter.id);
  if (filter.fileId !== undefined) add('d.file_id = ?', filter.fileId);
  return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
}

export interface SpringPage<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  number: number;
  size: number;
}

export const springPage = <T>(content: T[], total: number, page: number, size: number): SpringPage<T> => ({
  content,
  totalElements: total,
  totalPages: Math.ceil(total / size),
  number: page,
  size,
});

/** One page of documents with a 500-character preview of their text (never the whole text). */
export async function listDocuments(
  m: EntityManager,
  files: FileRecords,
  filter: DocumentFilter,
  page: { page: number; size: number; sort?: string },
): Promise<{ rows: DocumentRow[]; total: number }> {
  const params: unknown[] = [];
  const [field, direction] = (page.sort ?? 'createdAt,desc').split(',');
  const sort = SORTS[field] ?? 'd.created_at';
  const column = typeof sort === 'string' ? sort : sort(files);
  const dir = direction?.toLowerCase() === 'asc' ? 'ASC' : 'DESC';
  const sql = `SELECT ${DOCUMENT_COLUMNS}, left(d.extracted_text, 500) AS preview, count(*) OVER () AS total
    FROM document_contents d ${where(filter, params)}
    ORDER BY ${column} ${dir} NULLS LAST, d.id ${dir} LIMIT ${page.size} OFFSET ${page.page * page.size}`;
  const rows = await withFiles(m, files, await m.query<(DocumentRow & { total: string })[]>(sql, params));
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && page.page > 0) {
    const countParams: unknown[] = [];
    const [c] = await m.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM document_contents d ${where(filter, countParams)}`,
      countParams,
    );
    total = c.n;
  }
  return { rows, total };
}

/** One document (optionally with its full text), or null. */
export async function findDocument(
  m: EntityManager,
  files: FileRecords,
  filter: DocumentFilter,
  fullText = false,
): Promise<DocumentRow | null> {
  const params: unknown[] = [];
  const text = fullText ? 'd.extracted_text AS "extractedText"' : 'left(d.extracted_text, 500) AS preview';
  const found = await m.query<DocumentRow[]>(
    `SELECT ${DOCUMENT_COLUMNS}, ${text} FROM document_contents d ${where(filter, params)} LIMIT 1`,
    params,
  );
  const [row] = await withFiles(m, files, found);
  return row ?? null;
}

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

export async function countDocuments(m: EntityManager, companyId: number): Promise<StatusCounts> {
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
