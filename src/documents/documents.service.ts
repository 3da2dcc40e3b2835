import { HttpStatus, Injectable } from '@nestjs/common';
import { PlainMessageError } from '../common/errors/app-error';
import { FileRecords } from '../files';
import { TenantDatabase } from '../tenancy/tenant-database';
import { findDocument, listDocuments, springPage } from './document-queries';
import { DocumentsRepository } from './documents.repository';
import { documentView } from './document-view';
import { DocumentStatus } from './entities/document-content.entity';
import { OcrConfigStore } from './ocr-config.store';
import { OCR_LANGUAGES } from './ocr/languages';
import { TextExtraction } from './ocr/text-extraction';

export interface PageParams {
  page: number;
  size: number;
  sort?: string;
  status?: DocumentStatus;
}

const notFound = () => new PlainMessageError('Document analysis not found', HttpStatus.NOT_FOUND);

/** Reading document analysis records: summary, lists, details, counts, the engine's status. */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly configs: OcrConfigStore,
    private readonly extraction: TextExtraction,
    private readonly files: FileRecords,
    private readonly documents: DocumentsRepository,
  ) {}

  async serviceStatus() {
    const status = await this.extraction.engine.status();
    return {
      serviceAvailable: status.available,
      serviceUrl: status.url,
      serviceVersion: status.version,
      supportedLanguages: OCR_LANGUAGES.map(({ code, name }) => ({ code, name })),
      defaultLanguage: this.configs.defaultLanguage,
    };
  }

  async summary(companyId: number) {
    const config = await this.configs.get(companyId);
    const c = await this.db.run((m) => this.documents.statusCounts(m, companyId));
    const status = await this.extraction.engine.status();
    return {
      companyId,
      companyName: config.companyName,
      ocrEnabled: this.configs.enabledFor(config),
      ocrLanguage: config.ocrLanguage,
      ocrAutoProcess: config.ocrAutoProcess,
      totalDocuments: c.total,
      completedCount: c.completed,
      failedCount: c.failed,
      pendingCount: c.pending,
      processingCount: c.processing,
      skippedCount: c.skipped,
      totalCharactersExtracted: c.characters,
      serviceAvailable: status.available,
      successRate:
        c.completed + c.failed ? Math.round((c.completed / (c.completed + c.failed)) * 10000) / 100 : 0,
    };
  }

  async list(companyId: number | null, q: PageParams) {
    const { rows, total } = await this.db.run((m) =>
      listDocuments(m, this.files, this.documents, { companyId, status: q.status }, q),
    );
    return springPage(
      rows.map((r) => documentView(r)),
      total,
      q.page,
      q.size,
    );
  }

  async detail(companyId: number | null, where: { id?: number; fileId?: number }, fullText: boolean) {
    const row = await this.db.run((m) =>
      findDocument(m, this.files, this.documents, { companyId, ...where }, fullText),
    );
    if (!row) throw notFound();
    return documentView(row, { detail: true, fullText });
  }

  async queueStatus(companyId: number) {
    const c = await this.db.run((m) => this.documents.statusCounts(m, companyId));
    return {
      pending: c.pending,
      processing: c.processing,
      completed: c.completed,
      failed: c.failed,
      skipped: c.skipped,
      total: c.total,
    };
  }

  async stats(companyId: number) {
    const c = await this.db.run((m) => this.documents.statusCounts(m, companyId));
    return {
      companyId,
      totalDocuments: c.total,
      statusCounts: {
        PENDING: c.pending,
        PROCESSING: c.processing,
        COMPLETED: c.completed,
        FAILED: c.failed,
        SKIPPED: c.skipped,
      },
      totalCharactersExtracted: c.characters,
      indexedDocuments: c.indexed,
    };
  }

  /** Removes a document's stored content (text and search entry); the file stays. */
  async removeContent(companyId: number | null, fileId: number) {
    const row = await this.db.run((m) => findDocument(m, this.files, this.documents, { companyId, fileId }));
    if (!row) throw notFound();
    await this.db.transaction((m) => this.documents.delete(m, row.id));
  }
}
