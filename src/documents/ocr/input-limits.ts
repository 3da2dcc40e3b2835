/** Bounds on untrusted input, checked before (and while) a document is parsed. */
export interface InputLimits {
  imageMaxPixels: number;
  pdfMaxPages: number;
  pdfMaxInflatedBytes: number;
  docxMaxInflatedBytes: number;
  docxMaxRatio: number;
  maxTextChars: number;
}

export interface InputLimitSettings {
  OCR_IMAGE_MAX_PIXELS: number;
  OCR_PDF_MAX_PAGES: number;
  OCR_PDF_MAX_INFLATED_BYTES: number;
  OCR_DOCX_MAX_INFLATED_BYTES: number;
  OCR_DOCX_MAX_RATIO: number;
  OCR_MAX_TEXT_CHARS: number;
}

export const inputLimits = (s: InputLimitSettings): InputLimits => ({
  imageMaxPixels: s.OCR_IMAGE_MAX_PIXELS,
  pdfMaxPages: s.OCR_PDF_MAX_PAGES,
  pdfMaxInflatedBytes: s.OCR_PDF_MAX_INFLATED_BYTES,
  docxMaxInflatedBytes: s.OCR_DOCX_MAX_INFLATED_BYTES,
  docxMaxRatio: s.OCR_DOCX_MAX_RATIO,
  maxTextChars: s.OCR_MAX_TEXT_CHARS,
});
