/**
 * The OCR languages callers name, with Tesseract's model (all six ship in vendor/tessdata-fast) and
 * PostgreSQL's text search configuration. Chinese, Japanese and Korean use `simple` over text whose
 * CJK runs are split into pairs of characters (search-text.ts).
 */
export const OCR_LANGUAGES = [
  { code: 'ch', name: 'Chinese (Simplified)', tesseract: 'chi_sim', searchConfig: 'simple' },
  { code: 'en', name: 'English', tesseract: 'eng', searchConfig: 'english' },
  { code: 'fr', name: 'French', tesseract: 'fra', searchConfig: 'french' },
  { code: 'german', name: 'German', tesseract: 'deu', searchConfig: 'german' },
  { code: 'korean', name: 'Korean', tesseract: 'kor', searchConfig: 'simple' },
  { code: 'japan', name: 'Japanese', tesseract: 'jpn', searchConfig: 'simple' },
] as const;

export type OcrLanguage = (typeof OCR_LANGUAGES)[number]['code'];
export const OCR_LANGUAGE_CODES: OcrLanguage[] = OCR_LANGUAGES.map((l) => l.code);

const byCode = new Map<string, (typeof OCR_LANGUAGES)[number]>(OCR_LANGUAGES.map((l) => [l.code, l]));

/** Tesseract's code for a language (`fr` → `fra`); unknown codes fall back to English. */
export const tesseractCode = (code: string) => (byCode.get(code) ?? byCode.get('en')!).tesseract;

/** The text search configuration of a language; a fixed allow-list, so it can be passed as regconfig. */
export const searchConfig = (code: string) => (byCode.get(code) ?? byCode.get('en')!).searchConfig;

/** File types OCR reads (extensions without the dot). */
export const SUPPORTED_FILE_TYPES = ['png', 'jpg', 'jpeg', 'tiff', 'bmp', 'webp', 'pdf', 'docx', 'doc'];
export const DEFAULT_FILE_TYPES = 'pdf,png,jpg,jpeg,tiff,docx,doc';
