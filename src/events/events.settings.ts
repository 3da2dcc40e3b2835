import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from '../config/load-settings';

/** Settings of the domain-event outbox relay. */
export class EventsSettings {
  /** How often a worker polls the outbox of tenants with an open pool (a commit also nudges the relay at once). */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(600000)
  EVENT_RELAY_POLL_MS = 1000;

  /** How often a worker polls the outbox of every tenant, including those whose pool is closed. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  EVENT_RELAY_FULL_SCAN_MS = 60000;

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
