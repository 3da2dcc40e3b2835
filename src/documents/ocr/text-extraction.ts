import { Injectable } from '@nestjs/common';
import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import { StoresSettings } from '../../config/stores.settings';
import { DocumentsSettings } from '../documents.settings';
import { EmbeddedOcrEngine } from './embedded-engine';
import { HttpOcrEngine } from './http-engine';
import { OcrEngine, OcrResult } from './ocr-engine';

type PdfJs = typeof import('pdfjs-dist');
let pdfjsModule: PdfJs | undefined;

/** pdfjs-dist 3's legacy build (CommonJS, no canvas needed for text), loaded on the first PDF. */
function pdfjs(): PdfJs {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (pdfjsModule ??= require('pdfjs-dist/legacy/build/pdf.js') as PdfJs);
}

const IMAGE_TYPES = new Set(['.png', '.jpg', '.jpeg', '.tiff', '.bmp', '.webp']);

/** Text of a PDF's text layer and its page count. */
async function pdfText(content: Buffer): Promise<{ text: string; pages: number }> {
  const doc = await pdfjs().getDocument({
    data: new Uint8Array(content),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      pages.push(
        content.items
          .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
          .join('')
          .trim(),
      );
      page.cleanup();
    }
    return { text: pages.join('\n\n'), pages: doc.numPages };
  } finally {
    await doc.destroy();
  }
}

/**
 * Reads the text of a stored file: PDF text layers (pdfjs-dist), DOCX (mammoth) and DOC
 * (word-extractor) directly; images through the configured engine. A PDF without a text layer goes
 * to the HTTP service when that is the engine; the embedded engine reads images only.
 */
@Injectable()
export class TextExtraction {
  readonly engine: OcrEngine;

  constructor(
    settings: DocumentsSettings,
    embedded: EmbeddedOcrEngine,
    http: HttpOcrEngine,
    stores?: StoresSettings,
  ) {
    const engine = settings.OCR_ENGINE ?? (stores?.OCR_SERVICE_URL ? 'http' : 'embedded');
    this.engine = engine === 'http' ? http : embedded;
  }

  async extract(content: Buffer, ext: string, mime: string, language: string): Promise<OcrResult> {
    if (ext === '.pdf') {
      const { text, pages } = await pdfText(content).catch((err: Error) => {
        throw new Error(`PDF could not be read: ${err.message}`);
      });
      if (text.trim()) return { text, confidence: 1, pages };
      if (this.engine.name === 'http') return this.engine.recognize(content, mime, language);
      throw new Error('PDF has no text layer; scanned PDFs need the HTTP OCR engine');
    }
    if (ext === '.docx') {
      const { value } = await mammoth.extractRawText({ buffer: content }).catch((err: Error) => {
        throw new Error(`DOCX could not be read: ${err.message}`);
      });
      return { text: value, confidence: 1, pages: 1 };
    }
    if (ext === '.doc') {
      const doc = await new WordExtractor().extract(content).catch((err: Error) => {
        throw new Error(`DOC could not be read: ${err.message}`);
      });
      return { text: doc.getBody(), confidence: 1, pages: 1 };
    }
    if (IMAGE_TYPES.has(ext)) return this.engine.recognize(content, mime, language);
    throw new Error(`File type not supported for OCR: ${ext}`);
  }
}
