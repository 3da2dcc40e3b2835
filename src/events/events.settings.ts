import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from '../config/load-settings';

/** Settings of the domain-event outbox relay. */
export class EventsSettings {
  /** How often a worker reads the signalled tenants from Redis (a commit also has its own process relay at once). */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(600000)
  EVENT_RELAY_POLL_MS = 1000;

  /** How often workers sweep every tenant's outbox for events whose signal was lost (a few tenants at a time). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  EVENT_RELAY_FULL_SCAN_MS = 900000;

  /** Tenants a sweep looks into at once. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  EVENT_RELAY_SWEEP_CONCURRENCY = 2;

  /** Tenants a process drains at once; the others wait their turn. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(256)
  EVENT_RELAY_CONCURRENCY = 16;

  /** Outbox rows moved per relay transaction. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  EVENT_RELAY_BATCH = 200;

  /** Events per second and client the relay hands to webhook delivery; the rest wait in the outbox. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100000)
  WEBHOOK_MAX_EVENTS_PER_SECOND = 100;
}
