// Types only: the package's types are reached through its `exports`, which this build's resolution skips.
import type * as MuPdf from 'mupdf/dist/mupdf';
import { mupdf } from './mupdf-module';
import { countDecoded, DecodeBudget, Filter } from './stream-decoders';

/** A stream's filters in decoding order, from its /Filter and /DecodeParms (an inline image's /F and /DP). */
export function filtersOf(filter: MuPdf.PDFObject, parms: MuPdf.PDFObject): Filter[] {
  const names = filter.isArray() ? Array.from({ length: filter.length }, (_, i) => filter.get(i)) : [filter];
  if (names.length === 1 && names[0].isNull()) return [];
  return names.map((name, i) => {
    const own = parms.isArray() ? parms.get(i) : parms;
    const earlyChange = own.isDictionary() ? own.get('EarlyChange') : undefined;
    return {
      // A filter that is not a name stops the chain, as an unknown one does.
      name: name.isName() ? name.asName() : '',
      earlyChange: earlyChange?.isNumber() ? earlyChange.asNumber() !== 0 : undefined,
    };
  });
}

/**
 * Streams the text layer's reader reads as drawing operators whatever their dictionary says: pages'
 * contents and Type 3 glyphs. Labelled as images, they are counted all the same.
 */
function drawnStreams(doc: MuPdf.PDFDocument, count: number): Set<number> {
  const drawn = new Set<number>();
  const add = (ref: MuPdf.PDFObject) => {
    if (ref.isIndirect()) drawn.add(ref.asIndirect());
  };
  for (let num = 1; num < count; num++) {
    try {
      const object = doc.newIndirect(num);
      if (!object.isDictionary()) continue;
      const [type, subtype] = [object.get('Type'), object.get('Subtype')];
      if (type.isName() && type.asName() === 'Page') {
        const contents = object.get('Contents');
        if (contents.isArray()) for (let i = 0; i < contents.length; i++) add(contents.get(i));
        else add(contents);
      } else if (subtype.isName() && subtype.asName() === 'Type3') {
        const glyphs = object.get('CharProcs');
        if (glyphs.isDictionary()) glyphs.forEach(add);
      }
    } catch {
      // an object MuPDF cannot load: the parser meets the same
    }
  }
  return drawn;
}

export const pdfBudget = (maxBytes: number) =>
  new DecodeBudget(
    maxBytes,
    () => new Error(`PDF streams decode to more than ${maxBytes} bytes (OCR_PDF_MAX_INFLATED_BYTES)`),
  );

/**
 * Decodes every stream of a PDF (images aside: reading the text layer never decodes them) through
 * its filters within one budget, counting as it goes, and refuses the PDF as soon as together they
 * pass `maxBytes`. MuPDF finds the streams and their filters (object streams, indirect values and
 * encrypted files included); the decoding is ours, bounded. A file MuPDF cannot open is left to the
 * parser.
 */
export async function checkPdfDecodedSize(content: Buffer, maxBytes: number): Promise<void> {
  const lib = await mupdf();
  let doc: MuPdf.PDFDocument;
  try {
    doc = new lib.PDFDocument(content);
  } catch {
    return;
  }
  try {
    if (doc.needsPassword()) return;
    const budget = pdfBudget(maxBytes);
    const count = doc.countObjects();
    const drawn = drawnStreams(doc, count);
    for (let num = 1; num < count; num++) {
      const ref = doc.newIndirect(num);
      let filters: Filter[];
      let raw: MuPdf.Buffer;
      try {
        if (!ref.isStream()) continue;
        const subtype = ref.get('Subtype');
        if (subtype.isName() && subtype.asName() === 'Image' && !drawn.has(num)) continue;
        filters = filtersOf(ref.get('Filter'), ref.get('DecodeParms'));
        if (!filters.length) continue;
        raw = ref.readRawStream();
      } catch {
        continue; // an object MuPDF cannot load: the parser meets the same
      }
      try {
        countDecoded(raw.asUint8Array(), filters, budget);
      } finally {
        raw.destroy();
      }
    }
  } finally {
    doc.destroy();
  }
}
