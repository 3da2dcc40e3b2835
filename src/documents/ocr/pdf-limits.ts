import { constants, inflateSync } from 'node:zlib';

const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');
/** How far back from `stream` its dictionary is looked for. */
const DICTIONARY_WINDOW = 2048;

/** A zlib header: deflate method, a window of at most 32 KiB and a valid check. */
const isZlib = (data: Buffer) =>
  data.length > 2 && (data[0] & 0x0f) === 8 && data[0] >> 4 <= 7 && ((data[0] << 8) | data[1]) % 31 === 0;

/** Images are not decoded when the text layer is read, so their streams do not count. */
function isImage(content: Buffer, streamAt: number): boolean {
  const head = content.subarray(Math.max(0, streamAt - DICTIONARY_WINDOW), streamAt).toString('latin1');
  const dictionary = head.slice(head.lastIndexOf(' obj'));
  return /\/Subtype\s*\/Image\b/.test(dictionary);
}

/** Each stream's data (`stream` EOL … `endstream`). */
function* streams(content: Buffer): Generator<Buffer> {
  let at = content.indexOf(STREAM);
  while (at >= 0) {
    let start = at + STREAM.length;
    const isEndKeyword = at >= 3 && content.toString('latin1', at - 3, at) === 'end';
    if (isEndKeyword) {
      at = content.indexOf(STREAM, start);
      continue;
    }
    if (content[start] === 0x0d) start++;
    if (content[start] === 0x0a) start++;
    const end = content.indexOf(END_STREAM, start);
    if (end < 0) return;
    if (!isImage(content, at)) yield content.subarray(start, end);
    at = content.indexOf(STREAM, end + END_STREAM.length);
  }
}

/**
 * Inflates every Flate stream of a PDF (images aside) within one budget, keeping none of the output
 * beyond one stream, and refuses the PDF when together they inflate to more than `maxBytes`. A
 * truncated stream counts for what it yields; a stream zlib cannot read is left to the parser.
 */
export function checkPdfInflatedSize(content: Buffer, maxBytes: number): void {
  const tooLarge = () =>
    new Error(`PDF streams inflate to more than ${maxBytes} bytes (OCR_PDF_MAX_INFLATED_BYTES)`);
  let left = maxBytes;
  for (let data of streams(content)) {
    // A filter chain may deflate the same data twice or more: follow it.
    while (isZlib(data)) {
      try {
        data = inflateSync(data, { maxOutputLength: left + 1, finishFlush: constants.Z_SYNC_FLUSH });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
        break;
      }
      left -= data.length;
      if (left < 0) throw tooLarge();
    }
  }
}
