import { worker } from 'workerpool';
import { parseDocument, ParsedText, pdfjs } from './document-parsers';
import { InputLimits } from './input-limits';
import { mupdf } from './mupdf-module';
import { RenderedPage, renderPage } from './page-renderer';

const buffer = (content: Uint8Array) => Buffer.from(content.buffer, content.byteOffset, content.byteLength);

/** The sandbox process's methods (see parse-sandbox.ts): one document's text, one page's image. */
function parse(content: Uint8Array, ext: string, limits: InputLimits): Promise<ParsedText> {
  return parseDocument(buffer(content), ext, limits);
}

function render(content: Uint8Array, ext: string, index: number, limits: InputLimits): Promise<RenderedPage> {
  return renderPage(buffer(content), ext, index, limits);
}

worker({ parse, render });
// Loaded while the process waits for its first task, so a fresh process reads at once: pdfjs for
// text layers, MuPDF for the size check of every PDF and for scanned pages.
pdfjs();
mupdf().catch(() => undefined); // met again, and reported, by the first PDF
