import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { toBool, toInt } from '../config/load-settings';

const HTTP_URL = /^https?:\/\/[^\s]+$/;
/** Five fields (minute to weekday) or six (seconds first); Bull reads the expression itself. */
const CRON = /^\s*([0-9A-Za-z*?,/#LW-]+\s+){4,5}[0-9A-Za-z*?,/#LW-]+\s*$/;

/** Settings of client backups and restores (see .env.example, `# --- Backups ---`). */
export class BackupsSettings {
  /** Where backup objects are kept: `local` (BACKUP_DIR) or `s3` (an S3-compatible bucket). */
  @IsIn(['local', 's3'])
  BACKUP_STORE: 'local' | 's3' = 'local';

  @IsString()
  BACKUP_DIR = './backups';

  @IsOptional()
  @Matches(HTTP_URL, { message: 'must be an http(s) URL' })
  BACKUP_S3_ENDPOINT?: string = undefined;

  @IsOptional()
  @IsString()
  BACKUP_S3_BUCKET?: string = undefined;

  @IsString()
  BACKUP_S3_REGION = 'us-east-1';

  @IsOptional()
  @IsString()
  BACKUP_S3_ACCESS_KEY_ID?: string = undefined;

  @IsOptional()
  @IsString()
  BACKUP_S3_SECRET_ACCESS_KEY?: string = undefined;

  @Transform(toBool)
  @IsBoolean()
  BACKUP_S3_FORCE_PATH_STYLE = true;

  /** Cron expression (UTC) of the scheduled backups of every active client; empty: none. */
  @IsOptional()
  @Matches(CRON, { message: 'must be a cron expression of 5 or 6 fields' })
  BACKUP_SCHEDULE?: string = '0 2 * * *';

  /** The scheduled backups of one run start spread over this many seconds. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(24 * 3600)
  BACKUP_SPREAD_SECONDS = 3600;

  /** Backups one worker process runs at the same time. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  BACKUP_CONCURRENCY = 2;

  /** Backups older than this are deleted (the newest completed one of a client is always kept). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  BACKUP_RETENTION_DAYS = 30;

  /** How often a running backup or restore records that its worker is alive. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  BACKUP_HEARTBEAT_MS = 10_000;

  /**
   * Former ENCRYPTION_KEY values (comma-separated), kept to read the backups made under them after
   * the key was rotated; new backups always use ENCRYPTION_KEY.
   */
  @IsOptional()
  @IsString()
  BACKUP_PREVIOUS_ENCRYPTION_KEY?: string = undefined;
}
