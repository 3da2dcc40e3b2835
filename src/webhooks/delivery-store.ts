import { Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import { TenantClient, tenantContext } from '../tenancy/tenant-context';
import { DeliveriesRepository, DueDelivery, Success } from './deliveries.repository';

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

  constructor(private readonly deliveries: DeliveriesRepository) {}

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
    const rows = await this.deliveries.startAttempts(client, ids);
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  private async writeSuccesses(client: TenantClient, rows: readonly Success[]) {
    await this.deliveries.succeeded(client, rows);
    return rows.map(() => undefined);
  }
}
