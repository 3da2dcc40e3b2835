import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import { checkDocxInflatedSize } from './docx-limits';
import { InputLimits } from './input-limits';
import { checkPdfDecodedSize } from './pdf-limits';
import { tiffPages } from './tiff-pages';

type PdfJs = typeof import('pdfjs-dist');
let pdfjsModule: PdfJs | undefined;

/** pdfjs-dist 3's legacy build (CommonJS, no canvas needed for text), loaded on first use. */
export function pdfjs(): PdfJs {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (pdfjsModule ??= require('pdfjs-dist/legacy/build/pdf.js') as PdfJs);
}

export interface ParsedText {
  text: string;
  pages: number;
  /** PDF and TIFF: the text of each page read, "" for a page without a text layer (to be OCR'd). */
  pageTexts?: string[];
}

const failed = (kind: string) => (err: Error) => {
  throw new Error(`${kind} could not be read: ${err.message}`);
};

/** Text of a PDF's text layer and its page count; reading stops once `maxTextChars` are collected. */
async function pdfText(content: Buffer, limits: InputLimits): Promise<ParsedText> {
  await checkPdfDecodedSize(content, limits.pdfMaxInflatedBytes);
  const doc = await pdfjs()
    .getDocument({
      data: new Uint8Array(content),
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
      verbosity: 0,
    })
    .promise.catch(failed('PDF'));
  try {
    if (doc.numPages > limits.pdfMaxPages) {
      throw new Error(
        `PDF has ${doc.numPages} pages, over the limit of ${limits.pdfMaxPages} (OCR_PDF_MAX_PAGES)`,
      );
    }
    const pages: string[] = [];
    let length = 0;
    for (let n = 1; n <= doc.numPages && length < limits.maxTextChars; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('')
        .trim();
      pages.push(text);
      length += text.length + 2;
      page.cleanup();
    }
    return { text: pages.join('\n\n'), pages: doc.numPages, pageTexts: pages };
  } finally {
    await doc.destroy();
  }
}

/** A TIFF's pages, each checked by its header: none has a text layer, every one is to be OCR'd. */
function tiffText(content: Buffer, limits: InputLimits): Promise<ParsedText> {
  const pages = tiffPages(content, limits.pdfMaxPages);
  if (pages.length > limits.pdfMaxPages) {
    throw new Error(`TIFF has more than ${limits.pdfMaxPages} pages (OCR_PDF_MAX_PAGES)`);
  }
  pages.forEach(({ width, height }, i) => {
    if (!width || !height) throw new Error(`TIFF page ${i + 1} could not be read: no dimensions`);
    if (width * height > limits.imageMaxPixels) {
      throw new Error(
        `TIFF page ${i + 1} is ${width}×${height} pixels, over the limit of ${limits.imageMaxPixels} pixels ` +
          '(OCR_IMAGE_MAX_PIXELS)',
      );
    }
  });
  return Promise.resolve({ text: '', pages: pages.length, pageTexts: pages.map(() => '') });
}

async function docxText(content: Buffer, limits: InputLimits): Promise<ParsedText> {
  checkDocxInflatedSize(content, limits.docxMaxInflatedBytes, limits.docxMaxRatio);
  const { value } = await mammoth.extractRawText({ buffer: content }).catch(failed('DOCX'));
  return { text: value, pages: 1 };
}

async function docText(content: Buffer): Promise<ParsedText> {
  const doc = await new WordExtractor().extract(content).catch(failed('DOC'));
  return { text: doc.getBody(), pages: 1 };
}

const PARSERS: Record<string, (content: Buffer, limits: InputLimits) => Promise<ParsedText>> = {
  '.pdf': pdfText,
  '.docx': docxText,
  '.doc': docText,
  '.tiff': tiffText,
  '.tif': tiffText,
};

export const PARSED_TYPES = new Set(Object.keys(PARSERS));

/** The text of a PDF, DOCX or DOC (the pages of a TIFF), within `limits`, cut at `maxTextChars`. */
export async function parseDocument(content: Buffer, ext: string, limits: InputLimits): Promise<ParsedText> {
  const parser = PARSERS[ext];
  if (!parser) throw new Error(`File type not supported for OCR: ${ext}`);
  const parsed = await parser(content, limits);
  return { ...parsed, text: parsed.text.slice(0, limits.maxTextChars) };
}
