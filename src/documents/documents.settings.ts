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

  /** Embedded engine: Tesseract workers per language, created once and reused; also the job concurrency. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  OCR_WORKERS = 1;

  /**
   * Models of the bundled eng and fra: `fast` (Tesseract's fast LSTM models, shipped in
   * vendor/tessdata-fast, as the tesseract program on Debian reads) or `best` (the integerized "best"
   * networks of the @tesseract.js-data npm packages: slower, sometimes better on poor scans).
   */
  @IsIn(['fast', 'best'])
  OCR_MODEL: 'fast' | 'best' = 'fast';

  /** Folder with `<code>.traineddata(.gz)` for languages beyond the bundled eng and fra. */
  @IsOptional()
  @IsString()
  OCR_LANG_PATH?: string = undefined;

  /** Lock of a running OCR job; a worker that dies holding it hands the job on after this long. */
  @Transform(toInt)
  @IsInt()
  @Min(500)
  OCR_JOB_LOCK_MS = 60000;

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
   * Search ranks at most this many matching documents of a query: all of them when there are no more,
   * otherwise the newest ones (highest id); totalElements then stops at it and totalExact is false.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100000)
  SEARCH_RANK_WINDOW = 2000;
}
