import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DataSourceSettings, DbTarget, searchPathOptions } from '../database/data-source-factory';
import { clientPoolTarget } from '../database/pooling';
import { EntityClasses, TENANT_ENTITIES } from '../database/tenant-entities';
import { MASTER_DATA_SOURCE } from '../database/master-data-source';
import { buildMetadataTemplate, dataSourceWithMetadataOf } from '../database/shared-metadata';
import { AppError } from '../common/errors/app-error';
import { ClientConnectionPool } from './client-connection-pool';
import { ClientRegistry } from './client-registry';
import { ConnectionCeiling } from './connection-ceiling';
import { DatabaseServerRegistry } from './database-server-registry';
import { TenantClient, tenantContext } from './tenant-context';
import { TenantConnectionMetrics } from './tenant-connection-metrics';

/** How long a unit of work may wait for a client-database connection before answering 503. */
const CONNECTION_WAIT_MS = 5000;

interface ClientHandle {
  pool: ClientConnectionPool;
  dataSource: DataSource;
  serverId: number | null;
  /** The database itself, and where the pool connects: it or its server's pooler. */
  direct: DbTarget;
  connectsTo: string;
}

const address = (target: { host: string; port: number }) => `${target.host}:${target.port}`;

/**
 * Internal to src/tenancy (an ESLint rule keeps it there): features reach data through
 * TenantDatabase, connection figures through TenantPools, the platform registry through PlatformDatabase.
 *
 * One DataSource per client database, made on first use from metadata built once for all of them
 * (shared-metadata.ts), each over its own ClientConnectionPool. The pools open connections only for
 * work and share one ConnectionCeiling (TENANT_CONNECTION_CEILING connections in this process);
 * connections idle for TENANT_POOL_IDLE_MS close, and so does the handle of a client left without any.
 */
@Injectable()
export class TenantDataSources implements OnModuleDestroy {
  readonly metrics: TenantConnectionMetrics;
  private readonly handles = new Map<string, ClientHandle>();
  private readonly ceiling: ConnectionCeiling;
  private readonly settings: DataSourceSettings;
  private template?: Promise<DataSource>;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    @Inject(MASTER_DATA_SOURCE) readonly master: DataSource,
    private readonly registry: ClientRegistry,
    private readonly config: AppConfig,
    @Inject(TENANT_ENTITIES) entities: EntityClasses,
    private readonly servers: DatabaseServerRegistry,
  ) {
    this.settings = { entities, poolMax: config.TENANT_POOL_MAX };
    this.metrics = new TenantConnectionMetrics(
      () => this.ceiling.count,
      () =>
        servers.ids().map((id) => ({
          server: String(id),
          open: this.ceiling.heldPerServer().get(id) ?? 0,
          budget: servers.connectionBudget(id),
        })),
    );
    this.ceiling = new ConnectionCeiling(config.TENANT_CONNECTION_CEILING, this.metrics, (id) =>
      servers.connectionBudget(id),
    );
    const sweepEvery = Math.max(250, Math.min(30_000, config.TENANT_POOL_IDLE_MS / 4));
    this.sweeper = setInterval(() => this.closeIdle(), sweepEvery);
    this.sweeper.unref();
    // A moved client's connections lead to its former server: the next use opens them at the new one.
    registry.onMoved((identifier) => void this.close(identifier));
    // So do those of a client whose server's pooler was set, changed or cleared.
    servers.onChanged(() => this.closeRerouted());
  }

  /** The DataSource of the tenant the current request or job entered. */
  current(): Promise<DataSource> {
    return this.forClient(tenantContext.get().client);
  }

  forClient(client: TenantClient): Promise<DataSource> {
    if (client.isMaster) return Promise.resolve(this.master);
    const handle = this.handles.get(client.identifier);
    if (handle) return Promise.resolve(handle.dataSource);
    return this.open(client.identifier);
  }

  /** Clients holding (or waiting for) a connection here. */
  openPools(): { identifier: string; dataSource: DataSource; connections: number }[] {
    return [...this.handles]
      .filter(([, h]) => h.pool.totalCount > 0 || h.pool.waitingCount > 0)
      .map(([identifier, h]) => ({ identifier, dataSource: h.dataSource, connections: h.pool.totalCount }));
  }

  /** Client-database connections this process holds right now (opening and closing ones included). */
  connectionCount(): number {
    return this.ceiling.count;
  }

  async close(identifier: string): Promise<void> {
    const handle = this.handles.get(identifier);
    if (!handle) return;
    this.handles.delete(identifier);
    await handle.pool.end();
  }

  async onModuleDestroy() {
    clearInterval(this.sweeper);
    await this.registry.stop();
    await Promise.all([...this.handles.keys()].map((id) => this.close(id)));
    if (this.master.isInitialized) await this.master.destroy();
  }

  private async open(identifier: string): Promise<DataSource> {
    const client = this.registry.findByIdentifier(identifier);
    if (!client || client.status !== 'ACTIVE') throw AppError.clientNotFound();
    this.template ??= buildMetadataTemplate(this.master, this.settings);
    const template = await this.template;
    const existing = this.handles.get(identifier); // opened by a concurrent caller meanwhile
    if (existing) return existing.dataSource;
    const direct = this.registry.connectionTarget(client);
    const pooler = await this.servers.clientPooler(client.serverId, direct.host, direct.port);
    const again = this.handles.get(identifier); // opened by a concurrent caller while the server loaded
    if (again) return again.dataSource;
    const target = clientPoolTarget(direct, pooler);
    const pool = new ClientConnectionPool(
      identifier,
      client.serverId,
      {
        connection: {
          host: target.host,
          port: target.port,
          user: target.username,
          password: target.password,
          database: target.database,
          application_name: `svc-platform:${identifier}`,
          // Set at connection start-up, so it costs no round trip; sandboxes set theirs per transaction.
          ...searchPathOptions('public', target.pooled),
          connectionTimeoutMillis: 10_000,
        },
        max: this.config.TENANT_POOL_MAX,
        queueMax: this.config.TENANT_POOL_QUEUE_MAX,
        waitMs: CONNECTION_WAIT_MS,
        // A replica that missed a move's announcement learns it here, before reading the former copy.
        onRefused: () => void this.registry.reload(),
      },
      this.ceiling,
      this.metrics,
    );
    const dataSource = dataSourceWithMetadataOf(template, target, pool, {
      ...this.settings,
      pooled: target.pooled,
    });
    this.handles.set(identifier, {
      pool,
      dataSource,
      serverId: client.serverId,
      direct,
      connectsTo: address(target),
    });
    return dataSource;
  }

  /** Closes the pools whose server now has another pooler (or none, or a new one). */
  private closeRerouted() {
    for (const [identifier, handle] of this.handles) {
      if (handle.serverId === null) continue;
      const pooler = this.servers.poolerOf(handle.serverId);
      if (address(pooler ?? handle.direct) !== handle.connectsTo) void this.close(identifier);
    }
  }

  private closeIdle() {
    const cutoff = Date.now() - this.config.TENANT_POOL_IDLE_MS;
    for (const pool of [...this.ceiling.pools]) pool.closeIdleSince(cutoff);
    // A caller still holding a dropped DataSource can use it: its pool rejoins the ceiling then.
    for (const [identifier, { pool }] of this.handles) {
      if (pool.totalCount === 0 && pool.waitingCount === 0 && pool.lastUsed < cutoff) {
        this.handles.delete(identifier);
      }
    }
  }
}
