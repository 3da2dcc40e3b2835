import { worker } from 'workerpool';
import { parseDocument, ParsedText, pdfjs } from './document-parsers';
import { InputLimits } from './input-limits';

/** The sandbox process's one method (see parse-sandbox.ts): one document's text. */
function parse(content: Uint8Array, ext: string, limits: InputLimits): Promise<ParsedText> {
  return parseDocument(Buffer.from(content.buffer, content.byteOffset, content.byteLength), ext, limits);
}

worker({ parse });
// Loaded while the process waits for its first task, so a fresh process reads at once.
pdfjs();
