import { Injectable } from '@nestjs/common';
import { StoresSettings } from '../../config/stores.settings';
import { DocumentsSettings } from '../documents.settings';
import { PARSED_TYPES } from './document-parsers';
import { EmbeddedOcrEngine } from './embedded-engine';
import { HttpOcrEngine } from './http-engine';
import { checkImagePixels } from './image-limits';
import { InputLimits, inputLimits } from './input-limits';
import { OcrEngine, OcrResult } from './ocr-engine';
import { ParseSandbox } from './parse-sandbox';

const IMAGE_TYPES = new Set(['.png', '.jpg', '.jpeg', '.tiff', '.bmp', '.webp']);

/**
 * Reads the text of a stored file: PDF text layers (pdfjs-dist), DOCX (mammoth) and DOC
 * (word-extractor) in the parse sandbox; images through the configured engine once their header
 * shows an acceptable size. A PDF without a text layer goes to the HTTP service when that is the
 * engine; the embedded engine reads images only. Local work stops at OCR_DOCUMENT_TIMEOUT_MS.
 */
@Injectable()
export class TextExtraction {
  readonly engine: OcrEngine;
  private readonly limits: InputLimits;

  constructor(
    private readonly settings: DocumentsSettings,
    embedded: EmbeddedOcrEngine,
    http: HttpOcrEngine,
    private readonly sandbox: ParseSandbox,
    stores?: StoresSettings,
  ) {
    const engine = settings.OCR_ENGINE ?? (stores?.OCR_SERVICE_URL ? 'http' : 'embedded');
    this.engine = engine === 'http' ? http : embedded;
    this.limits = inputLimits(settings);
  }

  async extract(content: Buffer, ext: string, mime: string, language: string): Promise<OcrResult> {
    const result = await this.read(content, ext, mime, language);
    return { ...result, text: result.text.slice(0, this.limits.maxTextChars) };
  }

  private async read(content: Buffer, ext: string, mime: string, language: string): Promise<OcrResult> {
    if (PARSED_TYPES.has(ext)) {
      const { text, pages } = await this.withinTime((signal) =>
        this.sandbox.parse(content, ext, this.limits, signal),
      );
      if (text.trim()) return { text, confidence: 1, pages };
      if (ext !== '.pdf') return { text, confidence: 1, pages };
      if (this.engine.name === 'http') return this.engine.recognize(content, mime, language);
      throw new Error('PDF has no text layer; scanned PDFs need the HTTP OCR engine');
    }
    if (IMAGE_TYPES.has(ext)) {
      checkImagePixels(content, this.limits.imageMaxPixels);
      if (this.engine.name === 'http') return this.engine.recognize(content, mime, language);
      return this.withinTime((signal) => this.engine.recognize(content, mime, language, signal));
    }
    throw new Error(`File type not supported for OCR: ${ext}`);
  }

  /** Runs local work with an abort signal that fires at OCR_DOCUMENT_TIMEOUT_MS. */
  private async withinTime<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ms = this.settings.OCR_DOCUMENT_TIMEOUT_MS;
    const signal = AbortSignal.timeout(ms);
    try {
      return await work(signal);
    } catch (err) {
      if (signal.aborted)
        throw new Error(`Reading the document took longer than ${ms} ms (OCR_DOCUMENT_TIMEOUT_MS)`);
      throw err;
    }
  }
}
