import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { RedisService } from '../redis/redis.service';
import { ClientRegistry } from './client-registry';
import { MASTER_CLIENT, PRODUCTION_SCHEMA, TenantClient, tenantContext } from './tenant-context';

/**
 * Runs a scheduled task once per active client (once against the master when multi-tenancy is
 * off). A Redis lock per task, client and period makes it run once across all replicas.
 */
@Injectable()
export class PerClientRunner {
  private readonly logger = new Logger(PerClientRunner.name);

  constructor(
    private readonly config: AppConfig,
    private readonly registry: ClientRegistry,
    private readonly redis: RedisService,
  ) {}

  tenants(): TenantClient[] {
    if (!this.config.MULTITENANCY_DATABASE_ENABLED) return [MASTER_CLIENT];
    return this.registry.active().map((c) => ({ identifier: c.identifier, id: c.id, isMaster: false }));
  }

  /**
   * @param periodMs the task's schedule: the lock lasts one period, so a replica that fires late in
   *   the same period finds the work done.
   * @returns the identifiers of the tenants this replica ran the task for.
   */
  async runForEachClient(
    task: string,
    periodMs: number,
    work: (client: TenantClient) => Promise<void>,
  ): Promise<string[]> {
    const slot = Math.floor(Date.now() / periodMs);
    const ran: string[] = [];
    for (const client of this.tenants()) {
      const lock = this.redis.key('task', task, client.identifier, slot);
      const acquired = await this.redis.client.set(lock, randomUUID(), 'PX', periodMs, 'NX');
      if (acquired !== 'OK') continue;
      const store = { requestId: `task:${task}:${slot}`, client, schema: PRODUCTION_SCHEMA };
      try {
        await tenantContext.run(store, () => work(client));
        ran.push(client.identifier);
      } catch (err) {
        this.logger.error(`Task ${task} failed for ${client.identifier}: ${(err as Error).message}`);
      }
    }
    return ran;
  }
}
