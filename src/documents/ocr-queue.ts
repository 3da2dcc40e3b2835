import { Injectable, OnModuleDestroy } from '@nestjs/common';
import Bull from 'bull';
import { AppConfig } from '../config/app-config';
import { openJobQueue, TenantJob, tenantJobData } from '../tenancy/tenant-jobs';
import { DocumentsSettings } from './documents.settings';

export const OCR_QUEUE = 'ocr-documents';

export interface OcrJob extends TenantJob {
  documentId: number;
}

/**
 * The Bull queue of text extraction: one job per document, its id `<client>:<schema>:<document id>`,
 * so queueing a document again while its job is waiting does nothing. A worker that dies mid-job
 * leaves the job stalled; after OCR_JOB_LOCK_MS another worker runs it again.
 */
@Injectable()
export class OcrQueue implements OnModuleDestroy {
  readonly queue: Bull.Queue<OcrJob>;

  constructor(config: AppConfig, settings: DocumentsSettings) {
    this.queue = openJobQueue<OcrJob>(config, OCR_QUEUE, {
      lockDuration: settings.OCR_JOB_LOCK_MS,
      stalledInterval: settings.OCR_JOB_LOCK_MS,
      maxStalledCount: 100,
    });
  }

  async onModuleDestroy() {
    await this.queue.close().catch(() => undefined);
  }

  /** Queues documents of the current tenant. */
  async enqueue(documentIds: number[]): Promise<void> {
    if (!documentIds.length) return;
    const tenant = tenantJobData();
    await this.queue.addBulk(
      documentIds.map((documentId) => ({
        data: { tenant, documentId },
        opts: {
          jobId: `${tenant.client.identifier}:${tenant.schema}:${documentId}`,
          attempts: 3,
          backoff: { type: 'fixed', delay: 1000 },
          removeOnComplete: true,
          removeOnFail: true,
        },
      })),
    );
  }
}
