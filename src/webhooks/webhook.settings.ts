import { Transform } from 'class-transformer';
import { ArrayMinSize, IsArray, IsBoolean, IsInt, Max, Min } from 'class-validator';
import { toBool, toInt, toIntList } from '../config/load-settings';

/** Settings of webhook delivery (see .env.example, `# Webhooks`). */
export class WebhookSettings {
  /** Delay before each retry; the last one repeats when a webhook's maxRetries asks for more. */
  @Transform(toIntList)
  @IsArray()
  @ArrayMinSize(1)
  @IsInt({ each: true })
  @Min(0, { each: true })
  WEBHOOK_RETRY_DELAYS_MS: number[] = [60000, 300000, 900000];

  /** Allow loopback, private and link-local targets (tests, on-premise receivers). */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_TARGETS = false;

  /** Deliveries a worker process runs at the same time (Bull concurrency). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_WORKER_CONCURRENCY = 100;

  /** Requests in flight to one webhook per worker; more wait, so a slow receiver cannot hold every slot. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_ENDPOINT_CONCURRENCY = 20;

  /** How often workers re-enqueue due PENDING/RETRYING deliveries that have no live job. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  WEBHOOK_SWEEP_INTERVAL_MS = 30000;

  /**
   * How often workers look into every client's deliveries (a few clients at a time, once across
   * replicas) for pending deliveries or records the sweep and the purge lost track of.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  WEBHOOK_FULL_SWEEP_MS = 3600000;

  /** Bull job lock: a job of a killed worker is taken over this long after its last renewal. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  WEBHOOK_JOB_LOCK_MS = 30000;

  /** Delivery records older than this are purged. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_DELIVERY_RETENTION_DAYS = 30;
}
