import { Injectable } from '@nestjs/common';
import { StoresSettings } from '../../config/stores.settings';
import { DocumentsSettings } from '../documents.settings';
import { PARSED_TYPES, ParsedText } from './document-parsers';
import { EmbeddedOcrEngine } from './embedded-engine';
import { HttpOcrEngine } from './http-engine';
import { checkImagePixels } from './image-limits';
import { InputLimits, inputLimits } from './input-limits';
import { OcrEngine, OcrResult } from './ocr-engine';
import { ParseSandbox } from './parse-sandbox';

const IMAGE_TYPES = new Set(['.png', '.jpg', '.jpeg', '.bmp', '.webp']);
/** Types read page by page: a page without a text layer is rendered and OCR'd. */
const PAGED_TYPES = new Set(['.pdf', '.tiff', '.tif']);

/** Told after each page read: pages done, pages in the document. */
export type PageProgress = (done: number, total: number) => Promise<void> | void;

/**
 * Reads the text of a stored file: PDF text layers (pdfjs-dist), DOCX (mammoth) and DOC
 * (word-extractor) in the parse sandbox; images through the configured engine once their header
 * shows an acceptable size. PDF pages without a text layer and TIFF pages are rendered in the
 * sandbox (MuPDF) and read by the embedded engine page by page; the HTTP engine gets such a file
 * whole when it has no text layer at all. Local work stops at OCR_DOCUMENT_TIMEOUT_MS.
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

  async extract(
    content: Buffer,
    ext: string,
    mime: string,
    language: string,
    progress?: PageProgress,
  ): Promise<OcrResult> {
    const result = await this.read(content, ext, mime, language, progress);
    return { ...result, text: result.text.slice(0, this.limits.maxTextChars) };
  }

  private async read(
    content: Buffer,
    ext: string,
    mime: string,
    language: string,
    progress?: PageProgress,
  ): Promise<OcrResult> {
    if (PARSED_TYPES.has(ext)) {
      const signal = AbortSignal.timeout(this.settings.OCR_DOCUMENT_TIMEOUT_MS);
      const parsed = await this.withinTime(signal, () =>
        this.sandbox.parse(content, ext, this.limits, signal),
      );
      const blank = (parsed.pageTexts ?? []).some((text) => !text.trim());
      if (!PAGED_TYPES.has(ext) || !blank) return { text: parsed.text, confidence: 1, pages: parsed.pages };
      if (this.engine.name === 'http') {
        if (parsed.text.trim()) return { text: parsed.text, confidence: 1, pages: parsed.pages };
        return this.engine.recognize(content, mime, language);
      }
      return this.withinTime(signal, () => this.readPages(content, ext, parsed, language, signal, progress));
    }
    if (IMAGE_TYPES.has(ext)) {
      checkImagePixels(content, this.limits.imageMaxPixels);
      if (this.engine.name === 'http') return this.engine.recognize(content, mime, language);
      const signal = AbortSignal.timeout(this.settings.OCR_DOCUMENT_TIMEOUT_MS);
      return this.withinTime(signal, () => this.engine.recognize(content, mime, language, signal));
    }
    throw new Error(`File type not supported for OCR: ${ext}`);
  }

  /**
   * OCRs the pages without text one after the other, each rendered in the sandbox while the page
   * before it is read; pages with a text layer keep theirs. The confidence is the mean over pages
   * (1 for a text layer).
   */
  private async readPages(
    content: Buffer,
    ext: string,
    parsed: ParsedText,
    language: string,
    signal: AbortSignal,
    progress?: PageProgress,
  ): Promise<OcrResult> {
    const texts = [...(parsed.pageTexts ?? [])];
    const blank = texts.flatMap((text, i) => (text.trim() ? [] : [i]));
    const confidences = texts.filter((text) => text.trim()).map(() => 1);
    let done = texts.length - blank.length;
    let length = texts.reduce((n, text) => n + text.length + 2, 0);
    await progress?.(done, parsed.pages);
    const render = (index: number) => {
      const rendering = this.sandbox.render(content, ext, index, this.limits, signal);
      rendering.catch(() => undefined); // awaited below, unless a page before it failed
      return rendering;
    };
    let next = render(blank[0]);
    for (let k = 0; k < blank.length && length < this.limits.maxTextChars; k++) {
      const page = await next;
      if (k + 1 < blank.length) next = render(blank[k + 1]);
      const image = Buffer.from(page.image.buffer, page.image.byteOffset, page.image.byteLength);
      const read = await this.engine.recognize(image, 'image/x-portable-graymap', language, signal);
      texts[blank[k]] = read.text.trim();
      length += read.text.length;
      confidences.push(read.confidence);
      await progress?.(++done, parsed.pages);
    }
    const confidence = confidences.reduce((a, b) => a + b, 0) / Math.max(1, confidences.length);
    return { text: texts.join('\n\n'), confidence, pages: parsed.pages };
  }

  /** Runs local work under the document's time limit (`signal` fires at OCR_DOCUMENT_TIMEOUT_MS). */
  private async withinTime<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (signal.aborted) {
        const ms = this.settings.OCR_DOCUMENT_TIMEOUT_MS;
        throw new Error(`Reading the document took longer than ${ms} ms (OCR_DOCUMENT_TIMEOUT_MS)`);
      }
      throw err;
    }
  }
}
