import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from '../config/load-settings';

/** Limits of company file upload (413 past them). */
export class FilesSettings {
  /** Files in one upload request. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  UPLOAD_MAX_FILES = 10;

  /** Bytes of one uploaded file (25 MiB). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  UPLOAD_MAX_FILE_BYTES = 26214400;
}
