import { HttpStatus, Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { PlainMessageError } from '../common/errors/app-error';
import { AppError } from '../common/errors/app-error';
import { FileRecords } from '../files';
import { RateLimiter } from '../rate-limits/rate-limiter';
import { tenantContext } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';
import { DISABLED_MESSAGE, readsType, unsupportedMessage } from './document-intake';
import { findDocument } from './document-queries';
import { DocumentsRepository } from './documents.repository';
import { OcrCompanyConfig, OcrConfigStore } from './ocr-config.store';
import { OcrMetrics } from './ocr-metrics';
import { OcrQueue } from './ocr-queue';
import { TextExtraction } from './ocr/text-extraction';

export const QUEUED_MESSAGE = 'Document queued for processing';
export const UNAVAILABLE_MESSAGE = 'OCR service is not available. Please try again later.';
export const ALREADY_MESSAGE = 'File has already been analyzed successfully';

const fail = (message: string, status: number, headers?: Record<string, string>) =>
  new PlainMessageError(message, status, headers);

/**
 * Queueing documents again: retry (one FAILED or SKIPPED document), retry-all-failed, analyze (a file,
 * creating its document when it has none) and the admin process / reprocess. Checks run in one order:
 * OCR off for the company first, then the rate limit, then the record, its type and state, then the
 * engine's availability. Failures answer `{ error: "<message>" }`.
 */
@Injectable()
export class OcrActions {
  constructor(
    private readonly db: TenantDatabase,
    private readonly configs: OcrConfigStore,
    private readonly queue: OcrQueue,
    private readonly limiter: RateLimiter,
    private readonly extraction: TextExtraction,
    private readonly metrics: OcrMetrics,
    private readonly files: FileRecords,
    private readonly documents: DocumentsRepository,
  ) {}

  async enabledConfig(companyId: number): Promise<OcrCompanyConfig> {
    const config = await this.configs.get(companyId);
    if (!this.configs.enabledFor(config)) throw fail(DISABLED_MESSAGE, HttpStatus.BAD_REQUEST);
    return config;
  }

  /**
   * One budget per user or company of the current client: ids are numbered per client database, so
   * a key without the client would make user 1 of every client share one budget.
   */
  async limit(name: string, key: (string | number)[], limit: number, windowSeconds: number) {
    const client = tenantContext.get().client.identifier;
    try {
      await this.limiter.consume(`ocr-${name}`, [{ key: [client, ...key], limit, windowSeconds }]);
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 429) throw err;
      throw fail('Too many requests; try again later', 429, err.headers);
    }
  }

  private async ensureAvailable() {
    const status = await this.extraction.engine.status();
    if (!status.available) throw fail(UNAVAILABLE_MESSAGE, HttpStatus.SERVICE_UNAVAILABLE);
  }

  /** Sets the documents back to PENDING and queues them after commit. */
  private async requeue(ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.db.transaction((m) => this.documents.requeue(m, ids));
    await this.queue.enqueue(ids);
  }

  /** Queues one document again (a FAILED or SKIPPED one). */
  async retry(principal: Principal, companyId: number, analysisId: number) {
    const config = await this.enabledConfig(companyId);
    await this.limit('retry', ['user', principal.userId], 10, 60);
    const doc = await this.db.run((m) =>
      findDocument(m, this.files, this.documents, { companyId, id: analysisId }),
    );
    if (!doc) throw fail('Document analysis not found', HttpStatus.NOT_FOUND);
    await this.checkRequeue(config, doc.status, doc.fileName, doc.fileExt ?? '');
    await this.requeue([doc.id]);
    this.metrics.retry.inc();
    return { message: QUEUED_MESSAGE, analysisId: doc.id, status: 'processing' };
  }

  private async checkRequeue(config: OcrCompanyConfig, status: string, fileName: string, ext: string) {
    if (status === 'completed') throw fail(ALREADY_MESSAGE, HttpStatus.CONFLICT);
    if (status === 'pending' || status === 'processing') {
      throw fail('Document is already queued or being processed', HttpStatus.CONFLICT);
    }
    if (!readsType(this.configs.fileTypes(config), ext)) {
      throw fail(unsupportedMessage(fileName), HttpStatus.BAD_REQUEST);
    }
    await this.ensureAvailable();
  }

  async retryAllFailed(companyId: number) {
    await this.enabledConfig(companyId);
    await this.limit('retry-all', ['company', companyId], 3, 300);
    const ids = await this.documents.failedIds(companyId);
    if (ids.length) await this.ensureAvailable();
    await this.requeue(ids);
    this.metrics.retryAll.inc();
    return {
      message: `${ids.length} failed documents queued for processing`,
      count: ids.length,
      status: 'processing',
    };
  }

  /** Queues a file of the company; its document is created when it has none. */
  async analyze(principal: Principal | null, companyId: number | null, fileId: number, force = false) {
    if (companyId !== null) await this.enabledConfig(companyId);
    const file = await this.db.run((m) => this.files.find(m, fileId, companyId));
    if (companyId === null && file) await this.enabledConfig(file.companyId);
    if (principal) await this.limit('analyze', ['user', principal.userId], 20, 60);
    if (!file) throw fail('File not found', HttpStatus.NOT_FOUND);
    const config = await this.configs.get(file.companyId);
    const doc = await this.db.run((m) =>
      findDocument(m, this.files, this.documents, { companyId: file.companyId, fileId }),
    );
    const status = doc?.status ?? 'skipped';
    if (force && status === 'completed') {
      await this.ensureAvailable();
    } else {
      await this.checkRequeue(config, status, file.name, file.ext);
    }
    let id = doc?.id;
    if (!id) {
      const created = await this.db.transaction((m) =>
        this.documents.insert(m, {
          companyId: file.companyId,
          fileId,
          status: 'pending',
          ocrLanguage: config.ocrLanguage,
        }),
      );
      id = created.id;
    }
    await this.requeue([id]);
    this.metrics.retry.inc();
    return { message: QUEUED_MESSAGE, fileId: file.id, fileName: file.name, status: 'processing' };
  }
}
