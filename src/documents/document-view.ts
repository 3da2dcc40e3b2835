import { DocumentContent, DocumentStatus } from './entities/document-content.entity';

export const PREVIEW_LENGTH = 500;

const LABELS: Record<DocumentStatus, string> = {
  PENDING: 'Pending',
  PROCESSING: 'Processing',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  SKIPPED: 'Skipped',
};

/** A document row joined with its file, as read by the services. */
export interface DocumentRow extends DocumentContent {
  fileName: string;
  mimeType: string;
  fileSizeBytes: number;
  fileExt?: string;
  preview?: string | null;
}

export interface ViewOptions {
  detail?: boolean;
  fullText?: boolean;
  /** The search variant names the status `processingStatus`. */
  search?: boolean;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The document analysis record with its derived fields. */
export function documentView(row: DocumentRow, options: ViewOptions = {}): Record<string, unknown> {
  const status = row.status.toUpperCase() as DocumentStatus;
  const confidence = row.ocrConfidence === null ? null : Number(row.ocrConfidence);
  const text = row.extractedText ?? null;
  const preview = row.preview ?? (text === null ? null : text.slice(0, PREVIEW_LENGTH));
  const view: Record<string, unknown> = {
    id: row.id,
    fileId: row.fileId,
    fileName: row.fileName,
    fileUrl: `/api/files/${row.fileId}/content`,
    mimeType: row.mimeType,
    ...(options.detail ? { fileSizeBytes: Number(row.fileSizeBytes) } : {}),
    [options.search ? 'processingStatus' : 'status']: status,
    statusLabel: LABELS[status],
    errorMessage: row.errorMessage,
    ...(options.fullText ? { extractedText: text ?? '' } : {}),
    textPreview: preview ?? '',
    textLength: row.textLength,
    wordCount: row.wordCount,
    pageCount: row.pageCount,
    pagesProcessed: row.pagesProcessed,
    ocrConfidence: confidence,
    ocrLanguage: row.ocrLanguage,
    processingDurationMs: row.processingDurationMs,
    processingStartedAt: row.processingStartedAt,
    createdAt: row.createdAt,
    processedAt: row.processedAt,
    indexedForSearch: row.indexedForSearch,
    confidencePercent: confidence === null ? null : Math.round(confidence * 100),
    processingDurationSeconds:
      row.processingDurationMs === null ? null : round(row.processingDurationMs / 1000, 3),
    fileSizeKb: round(Number(row.fileSizeBytes) / 1024, 2),
    retryable: status === 'FAILED',
    complete: status === 'COMPLETED',
    inProgress: status === 'PENDING' || status === 'PROCESSING',
    fileType: row.fileType,
    companyId: row.companyId,
  };
  return view;
}

/** Whitespace-separated words. */
export const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;
