import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { toInt } from '../config/load-settings';

/** Settings of the OCR pipeline beside the store settings (OCR_ENABLED, OCR_SERVICE_URL, ...). */
export class DocumentsSettings {
  /**
   * `embedded` (tesseract.js in the worker) or `http` (OCR_SERVICE_URL + OCR_ENDPOINT). Unset: `http`
   * when OCR_SERVICE_URL is set, `embedded` otherwise.
   */
  @IsOptional()
  @IsIn(['embedded', 'http'])
  OCR_ENGINE?: 'embedded' | 'http' = undefined;

  /**
   * Embedded engine: Tesseract workers per language, created when the language is first needed and
   * reused; also the job concurrency.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  OCR_WORKERS = 1;

  /**
   * Models of English and French: `fast` (Tesseract's fast LSTM models, shipped in vendor/tessdata-fast
   * with those of the four other languages, as the tesseract program on Debian reads) or `best` (the
   * integerized "best" networks of the @tesseract.js-data npm packages: slower, sometimes better on
   * poor scans). The other languages always read with their fast model.
   */
  @IsIn(['fast', 'best'])
  OCR_MODEL: 'fast' | 'best' = 'fast';

  /** Folder with `<code>.traineddata(.gz)` for languages beyond the six bundled ones. */
  @IsOptional()
  @IsString()
  OCR_LANG_PATH?: string = undefined;

  /**
   * A language's Tesseract workers that have all been idle this long are ended, so a worker process
   * holds in memory only the models of the languages it read lately.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  OCR_LANGUAGE_IDLE_MS = 300000;

  /** Lock of a running OCR job; a worker that dies holding it hands the job on after this long. */
  @Transform(toInt)
  @IsInt()
  @Min(500)
  OCR_JOB_LOCK_MS = 60000;

  /** Heap ceiling of each thread that parses a PDF, DOCX or DOC; a document that needs more fails. */
  @Transform(toInt)
  @IsInt()
  @Min(32)
  OCR_SANDBOX_MEMORY_MB = 512;

  /** Time one document may take to be read (parsing or embedded OCR); past it the document fails. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  OCR_DOCUMENT_TIMEOUT_MS = 120000;

  /** Images above this many pixels (width × height, read from the header) are refused undecoded. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  OCR_IMAGE_MAX_PIXELS = 40000000;

  /** PDFs with more pages than this are refused. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  OCR_PDF_MAX_PAGES = 500;

  /** PDFs whose streams (images aside) inflate to more bytes than this together are refused. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  OCR_PDF_MAX_INFLATED_BYTES = 104857600;

  /** DOCX files whose zip entries inflate to more bytes than this together are refused. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  OCR_DOCX_MAX_INFLATED_BYTES = 104857600;

  /** DOCX files with an entry of over 1 MiB compressed more than this to one are refused. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  OCR_DOCX_MAX_RATIO = 200;

  /** Extracted text kept per document, in characters; the rest is dropped. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  OCR_MAX_TEXT_CHARS = 1000000;

  /**
   * OCR jobs of one client in the queue at most (waiting, running or waiting for a retry); the rest
   * wait their client's turn, so clients are served in turn. At least the OCR jobs all workers run
   * at a time lets one client alone keep them busy.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  OCR_CLIENT_MAX_IN_FLIGHT = 4;

  /**
   * A search counts its matches exactly up to this many; above, totalElements is
   * the planner's estimate (from the column statistics, at least the count reached) and totalExact
   * is false.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000000)
  SEARCH_EXACT_TOTAL = 1000;
}
