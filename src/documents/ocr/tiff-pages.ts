/** A TIFF page's size in pixels, from its directory (nothing is decoded). */
export interface TiffPage {
  width: number;
  height: number;
}

const SHORT = 3;
const LONG = 4;

/**
 * The pages of a TIFF (its chain of image file directories), read from the headers only, so that the
 * page count and every page's pixels are checked before anything is decoded. A chain that loops or
 * runs past `maxPages` stops being followed there.
 */
export function tiffPages(content: Buffer, maxPages: number): TiffPage[] {
  const order = content.toString('latin1', 0, 2);
  if (content.length < 8 || (order !== 'II' && order !== 'MM')) throw new Error('TIFF could not be read');
  const le = order === 'II';
  const u16 = (at: number) => (le ? content.readUInt16LE(at) : content.readUInt16BE(at));
  const u32 = (at: number) => (le ? content.readUInt32LE(at) : content.readUInt32BE(at));
  if (u16(2) !== 42) throw new Error('TIFF could not be read (BigTIFF and other variants are not read)');
  const pages: TiffPage[] = [];
  const seen = new Set<number>();
  for (let at = u32(4); at !== 0 && pages.length <= maxPages;) {
    if (seen.has(at) || at + 2 > content.length) break;
    seen.add(at);
    const entries = u16(at);
    if (at + 2 + entries * 12 + 4 > content.length) break;
    const page = { width: 0, height: 0 };
    for (let i = 0; i < entries; i++) {
      const entry = at + 2 + i * 12;
      const tag = u16(entry);
      const type = u16(entry + 2);
      const value = type === SHORT ? u16(entry + 8) : type === LONG ? u32(entry + 8) : 0;
      if (tag === 256) page.width = value;
      if (tag === 257) page.height = value;
    }
    pages.push(page);
    at = u32(at + 2 + entries * 12);
  }
  if (!pages.length) throw new Error('TIFF could not be read: no page');
  return pages;
}
