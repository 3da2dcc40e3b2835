import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from '../config/load-settings';

/** Settings of platform administration (see .env.example, `# Multi-tenancy`). */
export class PlatformSettings {
  /** Client databases a process migrates at the same time (at start and in migration jobs). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  CLIENT_MIGRATION_CONCURRENCY = 4;

  /** Client provisionings a worker process runs at the same time. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  PROVISIONING_CONCURRENCY = 4;

  /** How long a moved client's former database is kept on its former server before it is dropped. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(30 * 24 * 3600 * 1000)
  CLIENT_MOVE_SOURCE_GRACE_MS = 600_000;

  /**
   * An online move refuses the client's writes while it switches; a switch that takes longer than
   * this gives up on its own: the write guard goes, writes resume on the source, the job fails.
   */
  @Transform(toInt)
  @IsInt()
  @Min(200)
  @Max(600_000)
  CLIENT_MOVE_PAUSE_MAX_MS = 5_000;

  /** An online move switches once the target is this close behind the source (bytes of log). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1 << 30)
  CLIENT_MOVE_CATCH_UP_BYTES = 1 << 20;

  /**
   * A move or a migration of a client holds the client's lease on the master, renewed every fifth
   * of this; a worker that stops leaves a lease that runs out after this, and its move is taken over.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  CLIENT_LEASE_TTL_MS = 15_000;
}
