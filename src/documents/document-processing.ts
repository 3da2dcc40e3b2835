import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvents } from '../events/domain-events';
import { FileRecords } from '../files';
import { TenantDatabase } from '../tenancy/tenant-database';
import { withFiles } from './document-queries';
import { countWords, documentView } from './document-view';
import { DocumentsRepository } from './documents.repository';
import { OcrConfigStore } from './ocr-config.store';
import { OcrMetrics } from './ocr-metrics';
import { searchConfig } from './ocr/languages';
import { TextExtraction } from './ocr/text-extraction';
import { indexedText } from './search-text';

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
    private readonly documents: DocumentsRepository,
  ) {}

  async run(documentId: number): Promise<void> {
    const started = await this.db.transaction(async (m) => {
      const row = await this.documents.lockForRun(m, documentId);
      const file = row && (await this.files.find(m, row.file_id));
      if (!file || !['pending', 'processing'].includes(row.status)) return null;
      await this.documents.startRun(m, documentId);
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
        this.documents.completed(m, documentId, {
          text: result.text,
          textLength: result.text.length,
          wordCount: countWords(result.text),
          pages: result.pages,
          confidence: result.confidence.toFixed(4),
          language,
          durationMs: ms,
          searchConfig: searchConfig(language),
          indexedText: indexedText(result.text),
        }),
      );
      this.metrics.success.inc();
    } catch (err) {
      const ms = Number((process.hrtime.bigint() - begin) / 1_000_000n);
      const message = ((err as Error).message || 'Text extraction failed').slice(0, 2000);
      this.logger.warn(`Document ${documentId}: ${message}`);
      await this.finish(documentId, (m) => this.documents.failed(m, documentId, message, language, ms));
      this.metrics.failed.inc();
      this.metrics.failedGauge.inc();
    }
    this.metrics.processed.inc();
    this.metrics.duration.observe(Number(process.hrtime.bigint() - begin) / 1e9);
  }

  /** Pages read so far, shown by the record while PROCESSING (one short update per page read). */
  private async progress(documentId: number, done: number, total: number) {
    await this.db.run((m) => this.documents.progress(m, documentId, total, done));
  }

  /** Saves the outcome and sends its event in one transaction. */
  private async finish(documentId: number, save: (m: EntityManager) => Promise<unknown>) {
    await this.db.transaction(async (m) => {
      await save(m);
      const found = await this.documents.byId(m, documentId);
      const [row] = await withFiles(m, this.files, found ? [found] : []);
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
