import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvents } from '../events/domain-events';
import { FileRecords } from '../files';
import { TenantDatabase } from '../tenancy/tenant-database';
import { withFiles } from './document-queries';
import { DocumentRow, countWords, documentView } from './document-view';
import { OcrConfigStore } from './ocr-config.store';
import { OcrMetrics } from './ocr-metrics';
import { searchConfig } from './ocr/languages';
import { TextExtraction } from './ocr/text-extraction';
import { indexedText } from './search-text';

interface RawRow {
  company_id: number;
  file_id: number;
  status: string;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Extracts the text of one document (run by the OCR processor inside the document's tenant):
 * PENDING (or PROCESSING again after a worker died) → PROCESSING → COMPLETED with the text, its
 * counts and the search vector in the company language's configuration, or FAILED with the reason.
 * Sends `document.ocr_completed` / `document.ocr_failed`.
 */
@Injectable()
export class DocumentProcessing {
  private readonly logger = new Logger(DocumentProcessing.name);

  constructor(
    private readonly db: TenantDatabase,
    private readonly files: FileRecords,
    private readonly extraction: TextExtraction,
    private readonly configs: OcrConfigStore,
    private readonly events: DomainEvents,
    private readonly metrics: OcrMetrics,
  ) {}

  async run(documentId: number): Promise<void> {
    const started = await this.db.transaction(async (m) => {
      const [row] = await m.query<RawRow[]>(`SELECT * FROM document_contents WHERE id = $1 FOR UPDATE`, [
        documentId,
      ]);
      const file = row && (await this.files.find(m, row.file_id));
      if (!file || !['pending', 'processing'].includes(row.status)) return null;
      await m.query(
        `UPDATE document_contents SET status = 'processing', processing_started_at = now(), pages_processed = 0,
           updated_at = now()
         WHERE id = $1`,
        [documentId],
      );
      return { companyId: row.company_id, file };
    });
    if (!started) return;
    const config = await this.configs.get(started.companyId);
    const language = config.ocrLanguage;
    const begin = process.hrtime.bigint();
    try {
      const { file } = started;
      const content = await readAll(await this.files.open(file));
      const result = await this.extraction.extract(content, file.ext, file.mime, language, (done, total) =>
        this.progress(documentId, done, total),
      );
      const ms = Number((process.hrtime.bigint() - begin) / 1_000_000n);
      await this.finish(documentId, (m) =>
        m.query(
          `UPDATE document_contents SET status = 'completed', error_message = NULL, extracted_text = $2,
             text_length = $3, word_count = $4, page_count = $5, pages_processed = $5, ocr_confidence = $6,
             ocr_language = $7,
             processing_duration_ms = $8, processed_at = now(), indexed_for_search = true,
             search_vector = to_tsvector($9::regconfig, $10), updated_at = now()
           WHERE id = $1`,
          [
            documentId,
            result.text,
            result.text.length,
            countWords(result.text),
            result.pages,
            result.confidence.toFixed(4),
            language,
            ms,
            searchConfig(language),
            indexedText(result.text),
          ],
        ),
      );
      this.metrics.success.inc();
    } catch (err) {
      const ms = Number((process.hrtime.bigint() - begin) / 1_000_000n);
      const message = ((err as Error).message || 'Text extraction failed').slice(0, 2000);
      this.logger.warn(`Document ${documentId}: ${message}`);
      await this.finish(documentId, (m) =>
        m.query(
          `UPDATE document_contents SET status = 'failed', error_message = $2, ocr_language = $3,
             processing_duration_ms = $4, processed_at = now(), indexed_for_search = false,
             search_vector = NULL, updated_at = now()
           WHERE id = $1`,
          [documentId, message, language, ms],
        ),
      );
      this.metrics.failed.inc();
      this.metrics.failedGauge.inc();
    }
    this.metrics.processed.inc();
    this.metrics.duration.observe(Number(process.hrtime.bigint() - begin) / 1e9);
  }

  /** Pages read so far, shown by the record while PROCESSING (one short update per page read). */
  private async progress(documentId: number, done: number, total: number) {
    await this.db.run((m) =>
      m.query(
        `UPDATE document_contents SET page_count = $2, pages_processed = $3, updated_at = now()
         WHERE id = $1 AND status = 'processing'`,
        [documentId, total, done],
      ),
    );
  }

  /** Saves the outcome and sends its event in one transaction. */
  private async finish(documentId: number, save: (m: EntityManager) => Promise<unknown>) {
    await this.db.transaction(async (m) => {
      await save(m);
      const found = await m.query<Record<string, unknown>[]>(
        'SELECT * FROM document_contents WHERE id = $1',
        [documentId],
      );
      const [row] = await withFiles(m, this.files, found.map(camel) as unknown as DocumentRow[]);
      if (!row) return; // its content was removed meanwhile
      const view = documentView(row);
      await this.events.publish(m, {
        event: view.status === 'COMPLETED' ? 'document.ocr_completed' : 'document.ocr_failed',
        entityType: 'Document',
        entityId: documentId,
        companyId: view.companyId as number,
        attributes: view,
      });
    });
  }
}

/** snake_case row keys to camelCase (raw SQL rows). */
export function camel(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]),
  );
}
