import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Job } from 'bull';
import { runAsTenant } from '../tenancy/tenant-jobs';
import { DocumentProcessing } from './document-processing';
import { DocumentsSettings } from './documents.settings';
import { OcrJob, OcrQueue } from './ocr-queue';

/** The Bull processor of text extraction (workers only), OCR_WORKERS jobs at a time. */
@Injectable()
export class OcrProcessor implements OnModuleInit {
  constructor(
    private readonly queue: OcrQueue,
    private readonly processing: DocumentProcessing,
    private readonly settings: DocumentsSettings,
  ) {}

  onModuleInit() {
    void this.queue.queue.process(this.settings.OCR_WORKERS, (job: Job<OcrJob>) =>
      runAsTenant(job.data.tenant, () => this.processing.run(job.data.documentId)),
    );
  }
}
