import { DecodeBudget, feed, rawInflate } from './stream-decoders';

/** Entries smaller than this once inflated are harmless whatever their compression ratio. */
const RATIO_FLOOR_BYTES = 1024 * 1024;
const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const UNKNOWN_32 = 0xffffffff;

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  declaredSize: number;
  offset: number;
}

const unreadable = (why: string) => new Error(`DOCX could not be read: ${why}`);

/** The end of the central directory: where it starts and how many entries it holds (zip64 too). */
function directory(zip: Buffer): { at: number; count: number } {
  const from = Math.max(0, zip.length - 22 - 65535);
  for (let end = zip.length - 22; end >= from; end--) {
    if (zip.readUInt32LE(end) !== END_OF_DIRECTORY) continue;
    let [count, at] = [zip.readUInt16LE(end + 10), zip.readUInt32LE(end + 16)];
    if (end >= 20 && zip.readUInt32LE(end - 20) === ZIP64_LOCATOR) {
      const zip64 = Number(zip.readBigUInt64LE(end - 12));
      if (zip64 + 56 > zip.length) throw unreadable('zip64 directory out of the file');
      [count, at] = [Number(zip.readBigUInt64LE(zip64 + 32)), Number(zip.readBigUInt64LE(zip64 + 48))];
    }
    return { at, count };
  }
  throw unreadable('no zip directory');
}

/** The entries as the central directory lists them (the view the DOCX reader takes). */
function zipEntries(zip: Buffer): ZipEntry[] {
  let { at, count } = directory(zip);
  const entries: ZipEntry[] = [];
  for (; count > 0; count--) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY)
      throw unreadable('bad zip directory');
    const [nameLength, extraLength] = [zip.readUInt16LE(at + 28), zip.readUInt16LE(at + 30)];
    const entry: ZipEntry = {
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      declaredSize: zip.readUInt32LE(at + 24),
      offset: zip.readUInt32LE(at + 42),
    };
    readZip64Extra(zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), entry);
    entries.push(entry);
    at += 46 + nameLength + extraLength + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** Sizes and offset too large for 32 bits are in the zip64 extra field, in this order. */
function readZip64Extra(extra: Buffer, entry: ZipEntry) {
  for (let at = 0; at + 4 <= extra.length; at += 4 + extra.readUInt16LE(at + 2)) {
    if (extra.readUInt16LE(at) !== 1) continue;
    let field = at + 4;
    for (const key of ['declaredSize', 'compressedSize', 'offset'] as const) {
      if (entry[key] !== UNKNOWN_32 || field + 8 > extra.length) continue;
      entry[key] = Number(extra.readBigUInt64LE(field));
      field += 8;
    }
  }
}

/** An entry's stored bytes: after its local header, as long as the directory says. */
function entryData(zip: Buffer, entry: ZipEntry): Buffer {
  const at = entry.offset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_HEADER)
    throw unreadable(`bad entry ${entry.name}`);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  return zip.subarray(start, start + entry.compressedSize);
}

/**
 * Inflates every entry of a DOCX, keeping none of the output, whatever sizes its headers declare,
 * and refuses it as soon as its entries together pass `maxBytes` or an entry of over 1 MiB passes
 * `maxRatio` to one. Declared sizes over the limit are refused at once, before any inflating.
 */
export function checkDocxInflatedSize(content: Buffer, maxBytes: number, maxRatio: number): void {
  const tooLarge = () =>
    new Error(`DOCX inflates to more than ${maxBytes} bytes (OCR_DOCX_MAX_INFLATED_BYTES)`);
  const entries = zipEntries(content);
  if (entries.reduce((total, e) => total + e.declaredSize, 0) > maxBytes) throw tooLarge();
  const budget = new DecodeBudget(maxBytes, tooLarge);
  for (const entry of entries) {
    const data = entryData(content, entry);
    if (entry.method === 0) budget.count(data.length);
    if (entry.method !== 8) continue; // the reader knows no other method and refuses the file
    let size = 0;
    const inflate = rawInflate((chunk) => {
      budget.count(chunk.length);
      size += chunk.length;
      const ratio = size / Math.max(data.length, 1);
      if (size > RATIO_FLOOR_BYTES && ratio > maxRatio) {
        throw new Error(
          `DOCX part ${entry.name} is compressed more than ${maxRatio} to 1 (OCR_DOCX_MAX_RATIO)`,
        );
      }
    }, budget);
    try {
      feed(inflate, data);
      inflate.end();
    } catch (err) {
      if ((err as Error).message.includes('(OCR_DOCX_')) throw err;
      throw unreadable(`${entry.name}: ${(err as Error).message}`);
    }
  }
}
