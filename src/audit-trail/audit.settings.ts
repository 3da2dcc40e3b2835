import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { toBool, toInt } from '../config/load-settings';

/** Settings of the audit trail (read from the environment like AppConfig). */
export class AuditSettings {
  /** Days an audit entry is kept when its entity type has no retention policy of its own. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(36500)
  AUDIT_RETENTION_DAYS_DEFAULT = 2555;

  /** Period of the retention job in milliseconds; 0 turns the scheduled job off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(7 * 86_400_000)
  AUDIT_RETENTION_INTERVAL_MS = 86_400_000;

  /** Record every 4xx/5xx answer in the tenant's audit trail (for /compliance/audit/errors). */
  @Transform(toBool)
  @IsBoolean()
  AUDIT_RECORD_HTTP_ERRORS = true;

  /**
   * Paged lists count matches exactly up to this many; past it `total` is PostgreSQL's estimate and
   * `meta.totalExact` is false (counting 300,000 index entries costs ~100 ms). 0 always counts exactly.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  AUDIT_EXACT_COUNT_LIMIT = 10_000;
}
