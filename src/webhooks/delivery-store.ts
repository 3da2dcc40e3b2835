import { Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import { modifyReturning } from '../database/sql';
import { TenantClient, tenantContext } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';

/** A delivery that may be attempted now, with what its webhook needs to send it. */
export interface DueDelivery {
  id: string;
  webhook_id: number;
  event_id: string;
  event_type: string;
  payload: string;
  is_test: boolean;
  /** Attempts made, this one included. */
  attempt_count: number;
  max_attempts: number;
  url: string;
  http_method: string;
  content_type: string;
  custom_headers: Record<string, string>;
  timeout_ms: number;
  verify_ssl: boolean;
  secret_encrypted: string;
  consecutive_failures: number;
  last_delivery_at: Date | null;
}

export interface Success {
  id: string;
  status: number | null;
  durationMs: number;
}

interface ClientLoaders {
  client: TenantClient;
  due: DataLoader<number, DueDelivery | null>;
  succeeded: DataLoader<Success, void>;
}

/** How long a batch waits for more deliveries; short next to a delivery's own round trips. */
const BATCH_WINDOW_MS = 2;
const MAX_BATCH = 200;

/**
 * The worker's writes of delivery rows on the busy path, batched per client database: attempts
 * starting (or succeeding) within a couple of milliseconds share one statement, so a worker running
 * many deliveries at once pays one round trip and commit for all of them instead of two each.
 * Each caller still waits for its own row, and a success is reported only once it is committed.
 */
@Injectable()
export class DeliveryStore {
  private readonly loaders = new Map<string, ClientLoaders>();

  constructor(private readonly db: TenantDatabase) {}

  /**
   * Starts an attempt of the current client's delivery: counts it and answers the delivery, if it
   * is PENDING or RETRYING and its webhook is active (or it is a test ping).
   */
  due(deliveryId: number): Promise<DueDelivery | null> {
    return this.current().due.load(deliveryId);
  }

  /** Records an attempt of the current client that succeeded: SUCCESS, its status and duration. */
  succeeded(success: Success): Promise<void> {
    return this.current().succeeded.load(success);
  }

  /** The loaders of the current tenant's client: one batch never mixes two databases. */
  private current(): ClientLoaders {
    const { client } = tenantContext.get();
    const known = this.loaders.get(client.identifier);
    if (known) {
      known.client = client;
      return known;
    }
    const options = {
      cache: false,
      maxBatchSize: MAX_BATCH,
      batchScheduleFn: (run: () => void) => setTimeout(run, BATCH_WINDOW_MS),
    };
    const loaders: ClientLoaders = {
      client,
      due: new DataLoader((ids) => this.loadDue(loaders.client, ids), options),
      succeeded: new DataLoader((rows) => this.writeSuccesses(loaders.client, rows), options),
    };
    this.loaders.set(client.identifier, loaders);
    return loaders;
  }

  private async loadDue(client: TenantClient, ids: readonly number[]) {
    const ds = await this.db.forClient(client);
    const rows = await modifyReturning<DueDelivery>(
      ds.manager,
      `UPDATE public.webhook_deliveries d SET attempt_count = d.attempt_count + 1, updated_at = clock_timestamp()
         FROM public.webhooks w
        WHERE d.id = ANY($1::bigint[]) AND w.id = d.webhook_id AND d.status IN ('PENDING', 'RETRYING')
          AND (w.is_active OR d.is_test)
        RETURNING d.id, d.webhook_id, d.event_id, d.event_type, d.payload, d.is_test, d.attempt_count, d.max_attempts,
                  w.url, w.http_method, w.content_type, w.custom_headers, w.timeout_ms, w.verify_ssl,
                  w.secret_encrypted, w.consecutive_failures, w.last_delivery_at`,
      [ids],
    );
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  private async writeSuccesses(client: TenantClient, rows: readonly Success[]) {
    const ds = await this.db.forClient(client);
    await ds.query(
      `UPDATE public.webhook_deliveries d
          SET status = 'SUCCESS', response_status = x.status,
              error_message = NULL, duration_ms = x.duration_ms, next_attempt_at = NULL,
              completed_at = clock_timestamp(), updated_at = clock_timestamp()
         FROM unnest($1::bigint[], $2::int[], $3::int[]) AS x(id, status, duration_ms)
        WHERE d.id = x.id`,
      [rows.map((r) => r.id), rows.map((r) => r.status), rows.map((r) => r.durationMs)],
    );
    return rows.map(() => undefined);
  }
}
