// Types only: the package's types are reached through its `exports`, which this build's resolution skips.
import type * as MuPdf from 'mupdf/dist/mupdf';
import { InputLimits } from './input-limits';
import { mupdf } from './mupdf-module';
import { checkPageImages } from './page-images';
import { tiffPages } from './tiff-pages';

/** The resolution pages are read at: Tesseract's models are trained on text of about this size. */
export const OCR_DPI = 300;
/** Below this a page's text is too small to read: a page that fits the pixel limit only below it fails. */
export const MIN_DPI = 100;

/** One page as an 8-bit grey image (PGM: Leptonica reads it without decompressing anything). */
export interface RenderedPage {
  image: Uint8Array;
  width: number;
  height: number;
}

/**
 * Renders page `index` (0-based) of a PDF or TIFF in grey. PDF pages at OCR_DPI, lowered so that the
 * page stays within `imageMaxPixels` (below MIN_DPI the page is refused), after every image the page
 * draws has been checked against the same limit by its declared size; TIFF pages at their own
 * resolution (their pixels were checked when the file was opened).
 */
export async function renderPage(
  content: Buffer,
  ext: string,
  index: number,
  limits: InputLimits,
): Promise<RenderedPage> {
  const lib = await mupdf();
  const isPdf = ext === '.pdf';
  const kind = isPdf ? 'PDF' : 'TIFF';
  let doc: MuPdf.Document;
  try {
    doc = lib.Document.openDocument(content, isPdf ? 'application/pdf' : 'image/tiff');
  } catch (err) {
    throw new Error(`${kind} could not be read: ${(err as Error).message}`);
  }
  try {
    const page = doc.loadPage(index);
    try {
      const [x0, y0, x1, y1] = page.getBounds();
      const [width, height] = [x1 - x0, y1 - y0];
      let scale: number;
      if (isPdf) {
        checkPageImages((page as MuPdf.PDFPage).getObject(), index, limits);
        scale = pdfScale(width, height, index, limits.imageMaxPixels);
      } else {
        const native = tiffPages(content, limits.pdfMaxPages)[index];
        scale = Math.max(native.width / width, native.height / height);
      }
      const pixmap = page.toPixmap(lib.Matrix.scale(scale, scale), lib.ColorSpace.DeviceGray, false);
      try {
        return pgm(pixmap);
      } finally {
        pixmap.destroy();
      }
    } catch (err) {
      if ((err as Error).message.includes('OCR_')) throw err;
      throw new Error(`${kind} page ${index + 1} could not be read: ${(err as Error).message}`);
    } finally {
      page.destroy();
    }
  } finally {
    doc.destroy();
  }
}

/** Points to pixels: OCR_DPI, or less so that the page fits in `maxPixels`. */
function pdfScale(width: number, height: number, index: number, maxPixels: number): number {
  const fits = 72 * Math.sqrt(maxPixels / Math.max(1, width * height));
  const dpi = Math.min(OCR_DPI, fits);
  if (dpi < MIN_DPI) {
    throw new Error(
      `PDF page ${index + 1} is ${Math.round(width)}×${Math.round(height)} points: at ${MIN_DPI} dpi it is over ` +
        `the limit of ${maxPixels} pixels (OCR_IMAGE_MAX_PIXELS)`,
    );
  }
  return dpi / 72;
}

/** A grey pixmap as a binary PGM (P5). */
function pgm(pixmap: MuPdf.Pixmap): RenderedPage {
  const [width, height, stride] = [pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride()];
  const pixels = pixmap.getPixels();
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1');
  const image = new Uint8Array(header.length + width * height);
  image.set(header);
  for (let y = 0; y < height; y++) {
    image.set(pixels.subarray(y * stride, y * stride + width), header.length + y * width);
  }
  return { image, width, height };
}
