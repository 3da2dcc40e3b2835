import { Inject, Injectable, Logger, OnModuleDestroy, ServiceUnavailableException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { createDataSource } from '../database/data-source-factory';
import { EntityClasses, TENANT_ENTITIES } from '../database/tenant-entities';
import { MASTER_DATA_SOURCE } from '../database/master-data-source';
import { pgPoolOf } from '../database/pg-pool';
import { AppError } from '../common/errors/app-error';
import { ClientRegistry } from './client-registry';
import { TenantClient, tenantContext } from './tenant-context';

interface PoolEntry {
  identifier: string;
  ready: Promise<DataSource>;
  dataSource?: DataSource;
  lastUsed: number;
  openedAt: number;
}

interface PgPoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

const WAIT_FOR_ROOM_MS = 5000;

/**
 * Internal to src/tenancy (an ESLint rule keeps it there): features reach data through
 * TenantDatabase, pool figures through TenantPools, the platform registry through PlatformDatabase.
 *
 * One DataSource (pg pool) per client database, opened on first use, kept in least-recently-used
 * order. Pools together never hold more than TENANT_CONNECTION_CEILING connections: opening a new
 * one first closes idle pools, oldest first. Pools unused for TENANT_POOL_IDLE_MS are closed.
 */
@Injectable()
export class TenantDataSources implements OnModuleDestroy {
  private readonly logger = new Logger(TenantDataSources.name);
  private readonly pools = new Map<string, PoolEntry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    @Inject(MASTER_DATA_SOURCE) readonly master: DataSource,
    private readonly registry: ClientRegistry,
    private readonly config: AppConfig,
    @Inject(TENANT_ENTITIES) private readonly entities: EntityClasses,
  ) {
    this.sweeper = setInterval(() => void this.closeIdle(), Math.min(60_000, config.TENANT_POOL_IDLE_MS));
    this.sweeper.unref();
  }

  /** The DataSource of the tenant the current request or job entered. */
  current(): Promise<DataSource> {
    return this.forClient(tenantContext.get().client);
  }

  forClient(client: TenantClient): Promise<DataSource> {
    if (client.isMaster) return Promise.resolve(this.master);
    const entry = this.pools.get(client.identifier);
    if (entry) {
      entry.lastUsed = Date.now();
      // Re-insert to keep the map in least-recently-used order.
      this.pools.delete(client.identifier);
      this.pools.set(client.identifier, entry);
      return entry.ready;
    }
    return this.open(client.identifier);
  }

  openPools(): { identifier: string; dataSource?: DataSource; stats?: PgPoolStats }[] {
    return [...this.pools.values()].map((e) => ({
      identifier: e.identifier,
      dataSource: e.dataSource,
      stats: this.stats(e),
    }));
  }

  /** Connections the client pools hold right now. */
  connectionCount(): number {
    return [...this.pools.values()].reduce((sum, e) => sum + (this.stats(e)?.totalCount ?? 0), 0);
  }

  async close(identifier: string): Promise<void> {
    const entry = this.pools.get(identifier);
    if (!entry) return;
    this.pools.delete(identifier);
    const dataSource = await entry.ready.catch(() => undefined);
    await dataSource?.destroy().catch(() => undefined);
  }

  async onModuleDestroy() {
    clearInterval(this.sweeper);
    await this.registry.stop();
    await Promise.all([...this.pools.keys()].map((id) => this.close(id)));
    if (this.master.isInitialized) await this.master.destroy();
  }

  private async open(identifier: string): Promise<DataSource> {
    const client = this.registry.findByIdentifier(identifier);
    if (!client || client.status !== 'ACTIVE') throw AppError.clientNotFound();
    await this.makeRoom();
    const dataSource = createDataSource(this.registry.connectionTarget(client), {
      entities: this.entities,
      poolMax: this.config.TENANT_POOL_MAX,
      idleTimeoutMs: 30_000,
      applicationName: `svc-platform:${identifier}`,
    });
    const entry: PoolEntry = {
      identifier,
      lastUsed: Date.now(),
      openedAt: Date.now(),
      ready: dataSource.initialize(),
    };
    this.pools.set(identifier, entry);
    entry.ready.then(
      (ds) => (entry.dataSource = ds),
      () => this.pools.get(identifier) === entry && this.pools.delete(identifier),
    );
    return entry.ready;
  }

  /** Closes idle pools, least recently used first, until one more pool fits under the ceiling. */
  private async makeRoom(): Promise<void> {
    const perPool = this.config.TENANT_POOL_MAX;
    const ceiling = this.config.TENANT_CONNECTION_CEILING;
    const deadline = Date.now() + WAIT_FOR_ROOM_MS;
    while ((this.pools.size + 1) * perPool > ceiling) {
      const victim = [...this.pools.values()].find((e) => {
        const stats = this.stats(e);
        return e.dataSource && stats && stats.totalCount - stats.idleCount === 0 && stats.waitingCount === 0;
      });
      if (victim) {
        await this.close(victim.identifier);
        continue;
      }
      if (Date.now() > deadline) {
        throw new ServiceUnavailableException('All tenant connection pools are busy; try again shortly');
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  private async closeIdle() {
    const cutoff = Date.now() - this.config.TENANT_POOL_IDLE_MS;
    for (const entry of [...this.pools.values()]) {
      if (entry.lastUsed < cutoff) {
        this.logger.debug(`Closing idle pool of ${entry.identifier}`);
        await this.close(entry.identifier);
      }
    }
  }

  private stats(entry: PoolEntry): PgPoolStats | undefined {
    return pgPoolOf(entry.dataSource);
  }
}
