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

/** A one-page PDF whose content stream (Flate) inflates to `mib` MiB of text operators. */
export function pdfBomb(mib: number): Buffer {
  const line = 'BT /F1 12 Tf 72 720 Td (BOMB BOMB BOMB BOMB BOMB BOMB BOMB BOMB) Tj ET\n';
  const chunk = Buffer.from(line.repeat(Math.ceil(MIB / line.length))).subarray(0, MIB);
  const stream = Buffer.concat([Buffer.from([0x78, 0xda]), repeatedDeflate(chunk, mib)]);
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
  push('%PDF-1.4\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(
    3,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
  );
  object(4, [
    Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`),
    stream,
    Buffer.from('\nendstream'),
  ]);
  object(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const xref = length;
  push(`xref\n0 6\n0000000000 65535 f \n`);
  for (let n = 1; n <= 5; n++) push(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
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

/** A DOCX whose word/document.xml inflates to `mib` MiB (one paragraph repeated). */
export function docxBomb(mib: number): Buffer {
  const head = '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="x"><w:body>';
  const paragraph = '<w:p><w:r><w:t>BOMB</w:t></w:r></w:p>';
  const chunk = Buffer.from(paragraph.repeat(Math.ceil(MIB / paragraph.length))).subarray(0, MIB);
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = crc32(chunk, crc);
  return zip([
    entry('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types/>'),
    entry('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships/>'),
    { name: 'word/document.xml', data: repeatedDeflate(chunk, mib), crc, size: mib * MIB },
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
