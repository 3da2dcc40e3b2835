import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';

/** A grey image: one byte per pixel, row by row. */
export interface GreyImage {
  width: number;
  height: number;
  data: Buffer;
}

/** A PNG (e.g. from renderTextPng) as one grey byte per pixel. */
export function grey(png: Buffer): GreyImage {
  const { width, height, data } = PNG.sync.read(png);
  const out = Buffer.alloc(width * height);
  for (let i = 0; i < out.length; i++) out[i] = data[i * 4];
  return { width, height, data: out };
}

/** A PDF page: an image filling the page (a scan, no text layer) or lines of text (a text layer). */
export type PdfPage = { scan: GreyImage; dpi?: number } | { text: string[] } | { blankPoints: number };

/**
 * A PDF of the given pages, built by hand as a scanner or a word processor writes them: a scanned page
 * is a Flate-compressed grey image drawn over the whole page (its size in points from `dpi`, 300 by
 * default); a text page holds its lines in Helvetica; `blankPoints` is an empty square page that wide.
 */
export function pagesPdf(pages: PdfPage[]): Buffer {
  const objects: (string | Buffer)[] = [];
  const add = (o: string | Buffer) => objects.push(o) && objects.length;
  const catalog = add('<< /Type /Catalog /Pages 2 0 R >>');
  const pagesAt = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const stream = (dictionary: string, data: Buffer) =>
    Buffer.concat([
      Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  const kids = pages.map((page) => {
    let size: [number, number];
    let content: string;
    let resources = `/Font << /F1 ${font} 0 R >>`;
    if ('scan' in page) {
      const { width, height, data } = page.scan;
      const image = add(
        stream(
          `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray ` +
            '/BitsPerComponent 8 /Filter /FlateDecode',
          deflateSync(data),
        ),
      );
      const scale = 72 / (page.dpi ?? 300);
      size = [width * scale, height * scale];
      content = `q ${size[0]} 0 0 ${size[1]} 0 0 cm /Im0 Do Q`;
      resources += ` /XObject << /Im0 ${image} 0 R >>`;
    } else if ('text' in page) {
      const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
      size = [612, 792];
      content = [
        'BT',
        '/F1 14 Tf',
        '72 720 Td',
        '18 TL',
        ...page.text.map((l) => `(${escape(l)}) Tj T*`),
        'ET',
      ].join('\n');
    } else {
      size = [page.blankPoints, page.blankPoints];
      content = '';
    }
    const contents = add(stream('', Buffer.from(content, 'latin1')));
    return add(
      `<< /Type /Page /Parent ${pagesAt} 0 R /MediaBox [0 0 ${size[0]} ${size[1]}] /Contents ${contents} 0 R ` +
        `/Resources << ${resources} >> >>`,
    );
  });
  objects[pagesAt - 1] =
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = chunks[0].length;
  const offsets = objects.map((o, i) => {
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      Buffer.isBuffer(o) ? o : Buffer.from(o, 'latin1'),
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    chunks.push(chunk);
    const at = length;
    length += chunk.length;
    return at;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  chunks.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(chunks);
}

/**
 * A multi-page TIFF as fax and scanner software write them: one uncompressed 8-bit grey image per
 * directory, directories chained, resolution tags at `dpi` (none when omitted).
 */
export function multiPageTiff(pages: GreyImage[], dpi?: number): Buffer {
  const chunks: Buffer[] = [];
  const header = Buffer.alloc(8);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  chunks.push(header);
  let offset = header.length;
  const directories: { at: number; ifd: Buffer }[] = [];
  for (const page of pages) {
    const dataAt = offset;
    chunks.push(page.data);
    offset += page.data.length + (page.data.length % 2);
    if (page.data.length % 2) chunks.push(Buffer.alloc(1));
    const resolutionAt = offset;
    const resolution = Buffer.alloc(8);
    resolution.writeUInt32LE(dpi ?? 72, 0);
    resolution.writeUInt32LE(1, 4);
    chunks.push(resolution);
    offset += resolution.length;
    // tag, type (3 SHORT, 4 LONG, 5 RATIONAL), value
    const tags: [number, number, number][] = [
      [256, 4, page.width],
      [257, 4, page.height],
      [258, 3, 8],
      [259, 3, 1],
      [262, 3, 1],
      [273, 4, dataAt],
      [277, 3, 1],
      [278, 4, page.height],
      [279, 4, page.data.length],
      ...(dpi
        ? ([
            [282, 5, resolutionAt],
            [283, 5, resolutionAt],
            [296, 3, 2],
          ] as [number, number, number][])
        : []),
    ];
    const ifd = Buffer.alloc(2 + tags.length * 12 + 4);
    ifd.writeUInt16LE(tags.length, 0);
    tags.forEach(([tag, type, value], i) => {
      const at = 2 + i * 12;
      ifd.writeUInt16LE(tag, at);
      ifd.writeUInt16LE(type, at + 2);
      ifd.writeUInt32LE(1, at + 4);
      if (type === 3) ifd.writeUInt16LE(value, at + 8);
      else ifd.writeUInt32LE(value, at + 8);
    });
    directories.push({ at: offset, ifd });
    chunks.push(ifd);
    offset += ifd.length;
  }
  header.writeUInt32LE(directories[0].at, 4);
  directories.forEach(({ ifd }, i) => ifd.writeUInt32LE(directories[i + 1]?.at ?? 0, ifd.length - 4));
  return Buffer.concat(chunks);
}
