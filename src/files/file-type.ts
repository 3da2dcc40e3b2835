/** A file type told from the first bytes of its content, never from its name. */
export interface DetectedType {
  ext: string;
  mime: string;
}

const startsWith = (head: Buffer, bytes: number[], offset = 0) =>
  head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);
const ascii = (head: Buffer, text: string, offset = 0) => startsWith(head, [...Buffer.from(text)], offset);

/** ZIP containers: DOCX when the first entry names a Word part, otherwise a plain archive. */
function zipType(head: Buffer): DetectedType {
  const text = head.toString('latin1');
  if (text.includes('word/') || text.includes('[Content_Types].xml')) {
    return {
      ext: '.docx',
      mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    };
  }
  return { ext: '.zip', mime: 'application/zip' };
}

/** The type of a file from its first bytes (at least 4100 are read); unknown content is binary. */
export function detectType(head: Buffer): DetectedType {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { ext: '.png', mime: 'image/png' };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { ext: '.jpg', mime: 'image/jpeg' };
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) {
    return { ext: '.tiff', mime: 'image/tiff' };
  }
  if (ascii(head, 'BM') && head.length > 14) return { ext: '.bmp', mime: 'image/bmp' };
  if (ascii(head, 'RIFF') && ascii(head, 'WEBP', 8)) return { ext: '.webp', mime: 'image/webp' };
  if (ascii(head, 'GIF87a') || ascii(head, 'GIF89a')) return { ext: '.gif', mime: 'image/gif' };
  if (ascii(head, '%PDF-')) return { ext: '.pdf', mime: 'application/pdf' };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return zipType(head);
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    return { ext: '.doc', mime: 'application/msword' };
  }
  if (isText(head)) return { ext: '.txt', mime: 'text/plain' };
  return { ext: '.bin', mime: 'application/octet-stream' };
}

/** UTF-8 text without control characters other than whitespace. */
function isText(head: Buffer): boolean {
  if (!head.length) return false;
  for (const b of head) if (b < 0x09 || (b > 0x0d && b < 0x20) || b === 0x7f) return false;
  return true;
}
