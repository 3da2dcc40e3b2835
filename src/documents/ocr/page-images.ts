// Types only: the package's types are reached through its `exports`, which this build's resolution skips.
import type * as MuPdf from 'mupdf/dist/mupdf';
import { InputLimits } from './input-limits';
import { pdfBudget } from './pdf-limits';
import { countDecoded, Filter } from './stream-decoders';

/** Form XObjects, patterns and Type 3 glyphs nested deeper than this are not looked into. */
const MAX_DEPTH = 8;

/** `BI` as an operator: at the start or after white space or a delimiter, before white space or a name. */
const BEGIN_IMAGE = /(?<![^\s\])>])BI(?=[\s/])/g;
const IMAGE_DATA = /\sID\s/g;
const END_IMAGE = /\sEI(?=\s|$)/g;

interface InlineImage {
  dictionary: string;
  data: Buffer;
}

/** The inline images (BI … ID … EI) of a decoded content stream. */
function* inlineImages(content: Buffer): Generator<InlineImage> {
  const text = content.toString('latin1');
  BEGIN_IMAGE.lastIndex = 0;
  for (let begin = BEGIN_IMAGE.exec(text); begin; begin = BEGIN_IMAGE.exec(text)) {
    IMAGE_DATA.lastIndex = begin.index + 2;
    const id = IMAGE_DATA.exec(text);
    if (!id) return;
    const start = id.index + id[0].length;
    END_IMAGE.lastIndex = start;
    const end = END_IMAGE.exec(text);
    yield { dictionary: text.slice(begin.index + 2, id.index), data: content.subarray(start, end?.index) };
    BEGIN_IMAGE.lastIndex = end ? end.index + end[0].length : text.length;
  }
}

/** A name's characters, `#xx` escapes read. */
const nameOf = (raw: string) =>
  raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

const numberIn = (dictionary: string, keys: string) =>
  Number(new RegExp(`/(?:${keys})\\s+([0-9.]+)`).exec(dictionary)?.[1] ?? 0);

/** An inline image's filters, by full or abbreviated names (`/F [/A85 /Fl]`). */
function inlineFilters(dictionary: string): Filter[] {
  const value = /\/(?:F|Filter)\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/.exec(dictionary)?.[1] ?? '';
  const earlyChange = /\/EarlyChange\s+0(?![0-9.])/.test(dictionary) ? false : undefined;
  return [...value.matchAll(/\/([^\s/[\]<>()]+)/g)].map((m) => ({ name: nameOf(m[1]), earlyChange }));
}

/**
 * Refuses a page that draws an image of more than `imageMaxPixels` pixels (Width × Height as
 * declared, the size MuPDF would decode it to) before anything is drawn: image XObjects, and inline
 * images in the page's content, in the form XObjects, tiling patterns and Type 3 glyphs it uses and
 * in its annotations' appearances. Inline images' data is decoded through its filters within
 * `pdfMaxInflatedBytes`.
 */
export function checkPageImages(page: MuPdf.PDFObject, index: number, limits: InputLimits): void {
  const seen = new Set<number>();
  const budget = pdfBudget(limits.pdfMaxInflatedBytes);
  const checkPixels = (what: string, width: number, height: number) => {
    if (width * height <= limits.imageMaxPixels) return;
    throw new Error(
      `PDF page ${index + 1} holds ${what} of ${width}×${height} pixels, over the limit of ` +
        `${limits.imageMaxPixels} pixels (OCR_IMAGE_MAX_PIXELS)`,
    );
  };
  const firstVisit = (ref: MuPdf.PDFObject) => {
    if (!ref.isIndirect()) return true;
    if (seen.has(ref.asIndirect())) return false;
    seen.add(ref.asIndirect());
    return true;
  };
  const content = (stream: MuPdf.PDFObject) => {
    if (!stream.isStream()) return;
    const decoded = stream.readStream();
    try {
      for (const image of inlineImages(Buffer.from(decoded.asUint8Array()))) {
        checkPixels(
          'an inline image',
          numberIn(image.dictionary, 'W|Width'),
          numberIn(image.dictionary, 'H|Height'),
        );
        countDecoded(image.data, inlineFilters(image.dictionary), budget);
      }
    } finally {
      decoded.destroy();
    }
  };
  const each = (dictionary: MuPdf.PDFObject, fn: (value: MuPdf.PDFObject) => void) => {
    if (dictionary.isDictionary()) dictionary.forEach((value) => fn(value));
  };
  const resources = (dictionary: MuPdf.PDFObject, depth: number) => {
    if (!dictionary.isDictionary()) return;
    each(dictionary.get('XObject'), (ref) => {
      if (!firstVisit(ref)) return;
      const subtype = ref.get('Subtype');
      if (subtype.isName() && subtype.asName() === 'Image') {
        checkPixels('an image', ref.get('Width').asNumber(), ref.get('Height').asNumber());
      } else {
        drawing(ref, depth + 1);
      }
    });
    each(dictionary.get('Pattern'), (ref) => firstVisit(ref) && drawing(ref, depth + 1));
    each(dictionary.get('Font'), (font) => {
      const subtype = font.get('Subtype');
      if (!firstVisit(font) || !subtype.isName() || subtype.asName() !== 'Type3') return;
      each(font.get('CharProcs'), (glyph) => firstVisit(glyph) && depth < MAX_DEPTH && content(glyph));
      resources(font.get('Resources'), depth + 1);
    });
  };
  /** A content stream with resources of its own: a form XObject, a tiling pattern, an appearance. */
  const drawing = (stream: MuPdf.PDFObject, depth: number) => {
    if (depth > MAX_DEPTH || !stream.isStream()) return;
    content(stream);
    resources(stream.get('Resources'), depth);
  };

  const contents = page.get('Contents');
  if (contents.isArray()) for (let i = 0; i < contents.length; i++) content(contents.get(i));
  else content(contents);
  resources(page.getInheritable('Resources'), 0);
  const annotations = page.get('Annots');
  for (let i = 0; annotations.isArray() && i < annotations.length; i++) {
    const appearance = annotations.get(i).get('AP', 'N');
    if (appearance.isStream()) drawing(appearance, 1);
    else each(appearance, (state) => drawing(state, 1));
  }
}
