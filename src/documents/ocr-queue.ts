import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { FairTenantQueue } from '../tenancy/fair-tenant-queue';
import { DocumentsSettings } from './documents.settings';

export const OCR_QUEUE = 'ocr-documents';

export interface OcrJob {
  documentId: number;
}

/**
 * The queue of text extraction: one job per document of a schema, so queueing a document again
 * while its job is waiting does nothing. Clients take turns, each with at most
 * OCR_CLIENT_MAX_IN_FLIGHT jobs in Bull, so one client's thousands of scans never hold back another
 * client's first document. A worker that dies mid-job leaves the job stalled; after OCR_JOB_LOCK_MS
 * another worker runs it again.
 */
@Injectable()
export class OcrQueue extends FairTenantQueue<OcrJob> {
  constructor(config: AppConfig, settings: DocumentsSettings) {
    super(config, {
      name: OCR_QUEUE,
      dedup: { key: (job) => job.documentId, per: 'schema' },
      attempts: 3,
      backoff: { fixedMs: 1000 },
      lockMs: settings.OCR_JOB_LOCK_MS,
      maxInFlightPerClient: settings.OCR_CLIENT_MAX_IN_FLIGHT,
    });
  }

  /** Queues documents of the current tenant. */
  enqueue(documentIds: number[]): Promise<void> {
    return this.add(documentIds.map((documentId) => ({ documentId })));
  }
}
