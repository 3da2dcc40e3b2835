import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';

const MIB = 1024 * 1024;

/**
 * Raw deflate data that inflates to `pieces` copies of `chunk`, built from one compressed piece: a
 * full flush ends each piece on a byte boundary with a fresh dictionary, so copies can follow each
 * other. Ends with an empty final block.
 */
function repeatedDeflate(chunk: Buffer, pieces: number): Buffer {
  const piece = deflateRawSync(chunk, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array<Buffer>(pieces).fill(piece), Buffer.from([0x03, 0x00])]);
}

/**
 * A one-page PDF drawing `contents` (its stream dictionary's other entries in `filter`, e.g.
 * `/Filter /LZWDecode`), with a font and an XObject /Fm1: by default a form drawing `form`.
 */
export function onePagePdf(
  contents: Buffer,
  filter: string,
  form: Buffer = Buffer.alloc(0),
  xobject = '/Type /XObject /Subtype /Form /BBox [0 0 612 792]',
  mediaBox = '0 0 612 792',
): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (part: string | Buffer) => {
    const buffer = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(buffer);
    length += buffer.length;
  };
  const object = (n: number, body: string | Buffer[]) => {
    offsets[n] = length;
    push(`${n} 0 obj\n`);
    for (const part of typeof body === 'string' ? [body] : body) push(part);
    push('\nendobj\n');
  };
  const stream = (dictionary: string, data: Buffer) => [
    Buffer.from(`<< /Length ${data.length} ${dictionary} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ];
  push('%PDF-1.4\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(
    3,
    `<< /Type /Page /Parent 2 0 R /MediaBox [${mediaBox}] /Contents 4 0 R ` +
      '/Resources << /Font << /F1 5 0 R >> /XObject << /Fm1 6 0 R >> >> >>',
  );
  object(4, stream(filter, contents));
  object(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  object(6, stream(xobject, form));
  const xref = length;
  push(`xref\n0 7\n0000000000 65535 f \n`);
  for (let n = 1; n <= 6; n++) push(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size 7 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** Zlib data that inflates to `mib` MiB of text operators. */
function textOperatorsDeflated(mib: number): Buffer {
  const line = 'BT /F1 12 Tf 72 720 Td (BOMB BOMB BOMB BOMB BOMB BOMB BOMB BOMB) Tj ET\n';
  const chunk = Buffer.from(line.repeat(Math.ceil(MIB / line.length))).subarray(0, MIB);
  return Buffer.concat([Buffer.from([0x78, 0xda]), repeatedDeflate(chunk, mib)]);
}

/** A one-page PDF whose content stream (Flate) inflates to `mib` MiB of text operators. */
export function pdfBomb(mib: number): Buffer {
  return onePagePdf(textOperatorsDeflated(mib), '/Filter /FlateDecode');
}

/**
 * LZW codes (EarlyChange 1) for `mib` MiB of spaces: each code one space longer than the one before
 * (the code being defined: "the previous string and its first byte") until the table is full, then
 * the longest one (3839 spaces in 12 bits) over and over.
 */
export function lzwSpaces(mib: number): Buffer {
  const out: number[] = [];
  let [bits, count, next, width, left] = [0, 0, 258, 9, mib * MIB];
  const write = (code: number) => {
    bits = (bits << width) | code;
    count += width;
    while (count >= 8) {
      count -= 8;
      out.push((bits >> count) & 0xff);
    }
    bits &= (1 << count) - 1;
  };
  write(0x20);
  left -= 1;
  while (left > 0) {
    const code = Math.min(next, 4095);
    write(code);
    left -= code - 256;
    if (next < 4096) next++;
    const limit = next + 1;
    width = limit >= 2048 ? 12 : limit >= 1024 ? 11 : limit >= 512 ? 10 : 9;
  }
  write(257);
  if (count) out.push((bits << (8 - count)) & 0xff);
  return Buffer.from(out);
}

/** A one-page PDF whose content stream (LZW) decodes to `mib` MiB of spaces. */
export const pdfLzwBomb = (mib: number) => onePagePdf(lzwSpaces(mib), '/Filter /LZWDecode');

/** A one-page PDF whose content stream (RunLength) decodes to `mib` MiB of spaces (128 per 2 bytes). */
export function pdfRunLengthBomb(mib: number): Buffer {
  const runs = Buffer.alloc((mib * MIB) / 64 + 1);
  for (let i = 0; i + 1 < runs.length; i += 2) [runs[i], runs[i + 1]] = [129, 0x20];
  runs[runs.length - 1] = 128;
  return onePagePdf(runs, '/Filter /RunLengthDecode');
}

/** ASCII85 of `data`, `z` for four zero bytes, ended by `~>`. */
export function ascii85(data: Buffer): Buffer {
  let out = '';
  for (let at = 0; at < data.length; at += 4) {
    const group = Buffer.alloc(4);
    data.copy(group, 0, at, at + 4);
    const n = Math.min(4, data.length - at);
    let value = group.readUInt32BE(0);
    if (value === 0 && n === 4) {
      out += 'z';
      continue;
    }
    const digits: string[] = [];
    for (let k = 0; k < 5; k++, value = Math.floor(value / 85))
      digits.unshift(String.fromCharCode(33 + (value % 85)));
    out += digits.slice(0, n + 1).join('');
  }
  return Buffer.from(`${out}~>`, 'latin1');
}

/** A one-page PDF whose content stream (ASCII85) decodes to `mib` MiB of zero bytes (white space). */
export const pdfAscii85Bomb = (mib: number) =>
  onePagePdf(Buffer.from(`${'z'.repeat((mib * MIB) / 4)}~>`), '/Filter /ASCII85Decode');

/** A one-page PDF whose content stream, ASCII85 over Flate, decodes to `mib` MiB of spaces. */
export function pdfChainBomb(mib: number): Buffer {
  const spaces = Buffer.concat([Buffer.from([0x78, 0xda]), repeatedDeflate(Buffer.alloc(MIB, 0x20), mib)]);
  return onePagePdf(ascii85(spaces), '/Filter [/ASCII85Decode /FlateDecode]');
}

/** A content stream drawing a `width`×`height` grey inline image (ASCIIHex over Flate, abbreviated). */
function inlineImage(width: number, height: number): Buffer {
  const pixels = Buffer.concat([
    Buffer.from([0x78, 0xda]),
    repeatedDeflate(Buffer.alloc(Math.min(MIB, width * height), 0xff), Math.ceil((width * height) / MIB)),
  ]);
  const data = pixels.toString('hex');
  return Buffer.from(
    `q 612 0 0 792 0 0 cm\nBI /W ${width} /H ${height} /CS /G /BPC 8 /F [/AHx /Fl] ID\n${data}>\nEI\nQ\n`,
  );
}

/** A blank PDF page of `points`×`points`: rendered, it is as large as the pixel limit allows. */
export const pdfLargePage = (points: number) =>
  onePagePdf(Buffer.alloc(0), '', undefined, undefined, `0 0 ${points} ${points}`);

/** A one-page PDF drawing an inline image of `width`×`height` pixels, in its content or in a form. */
export function pdfInlineImage(width: number, height: number, inForm = false): Buffer {
  const image = inlineImage(width, height);
  if (!inForm) return onePagePdf(image, '');
  return onePagePdf(Buffer.from('/Fm1 Do\n'), '', image);
}

interface ZipEntry {
  name: string;
  data: Buffer;
  crc: number;
  size: number;
}

/**
 * A zip header: signature, then from `at` the version, flags, method (8, deflate), time, date, CRC,
 * both sizes and the name's length (the same run in a local header and a directory entry).
 */
function zipHeader(signature: number, length: number, at: number, e: ZipEntry, nameLength: number) {
  const header = Buffer.alloc(length);
  header.writeUInt32LE(signature, 0);
  header.writeUInt16LE(20, at);
  header.writeUInt16LE(8, at + 4);
  header.writeUInt32LE(e.crc, at + 10);
  header.writeUInt32LE(e.data.length, at + 14);
  header.writeUInt32LE(e.size, at + 18);
  header.writeUInt16LE(nameLength, at + 22);
  return header;
}

/** A zip of deflated entries, written by hand so an entry can be given pre-compressed. */
function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = zipHeader(0x04034b50, 30, 4, e, name.length);
    const dir = zipHeader(0x02014b50, 46, 6, e, name.length);
    dir.writeUInt16LE(20, 4); // made by
    dir.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    central.push(dir, name);
    offset += local.length + name.length + e.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const entry = (name: string, text: string): ZipEntry => {
  const raw = Buffer.from(text);
  return { name, data: deflateRawSync(raw), crc: crc32(raw), size: raw.length };
};

/**
 * A DOCX whose word/document.xml inflates to `mib` MiB (one paragraph repeated); with `declared`,
 * its headers say the entry inflates to that many bytes only.
 */
export function docxBomb(mib: number, declared = mib * MIB): Buffer {
  const head = '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="x"><w:body>';
  const paragraph = '<w:p><w:r><w:t>BOMB</w:t></w:r></w:p>';
  const chunk = Buffer.from(paragraph.repeat(Math.ceil(MIB / paragraph.length))).subarray(0, MIB);
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = crc32(chunk, crc);
  return zip([
    entry('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types/>'),
    entry('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships/>'),
    { name: 'word/document.xml', data: repeatedDeflate(chunk, mib), crc, size: declared },
    entry('word/end.xml', head),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG whose header claims `width`×`height` RGB pixels, with a tiny compressed first row. */
export function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1 + width * 3))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
