import { Injectable, OnModuleInit } from '@nestjs/common';
import { DocumentProcessing } from './document-processing';
import { DocumentsSettings } from './documents.settings';
import { OcrQueue } from './ocr-queue';

/** The processor of text extraction (workers only), OCR_WORKERS jobs at a time. */
@Injectable()
export class OcrProcessor implements OnModuleInit {
  constructor(
    private readonly queue: OcrQueue,
    private readonly processing: DocumentProcessing,
    private readonly settings: DocumentsSettings,
  ) {}

  onModuleInit() {
    this.queue.process(this.settings.OCR_WORKERS, ({ documentId }) => this.processing.run(documentId));
  }
}
