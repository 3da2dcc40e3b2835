/** Text read from one image (or a scanned document the engine reads itself). */
export interface OcrResult {
  text: string;
  /** 0..1 */
  confidence: number;
  pages: number;
}

export interface OcrServiceStatus {
  available: boolean;
  /** null for the embedded engine. */
  url: string | null;
  version: string;
}

/**
 * One OCR engine: the embedded Tesseract or the HTTP service. `language` is a caller's code (`en`).
 * `signal` aborts the reading (the embedded engine ends the worker; the HTTP engine has its own timeout).
 */
export interface OcrEngine {
  readonly name: 'embedded' | 'http';
  recognize(content: Buffer, mime: string, language: string, signal?: AbortSignal): Promise<OcrResult>;
  status(): Promise<OcrServiceStatus>;
}

/** Raised when the engine cannot be reached; the analyze endpoint answers it as 503. */
export class OcrUnavailableError extends Error {}
