import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { toBool, toInt } from '../config/load-settings';

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

  /** S3-compatible store: address the bucket in the path (most non-AWS servers) rather than the host name. */
  @Transform(toBool)
  @IsBoolean()
  S3_FORCE_PATH_STYLE = true;
}
