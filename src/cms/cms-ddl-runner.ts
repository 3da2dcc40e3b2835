import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Pool } from 'pg';
import { AppConfig } from '../config/app-config';
import { DbTarget, parseDatabaseUrl } from '../database/data-source-factory';
import { runSchemaDdlOn, SchemaDdl } from '../database/schema-ddl.repository';
import { ClientDatabases } from '../tenancy/client-databases';
import { ClientRegistry } from '../tenancy/client-registry';
import { tenantContext } from '../tenancy/tenant-context';
import { CmsDdl, CmsDdlRepository } from './cms-ddl.repository';

/** Administrative connections kept per database while its types change (then closed when idle). */
const MAX_CONNECTIONS = 2;
const IDLE_MS = 30_000;

/**
 * Runs content-type DDL in the current schema's DDL transaction (the schema's advisory lock, the
 * schema first on the search_path) on an administrative connection kept open for a while, so a
 * change of definition costs its statements, not a new login each time: on a loaded server the
 * connection and its close were most of the time of adding a field. A database's idle connections
 * close after IDLE_MS, so the cost follows the clients that change their types.
 */
@Injectable()
export class CmsDdlRunner implements OnModuleDestroy {
  private readonly pools = new Map<string, Pool>();

  constructor(
    private readonly config: AppConfig,
    private readonly databases: ClientDatabases,
    private readonly registry: ClientRegistry,
    private readonly statements: CmsDdlRepository,
  ) {}

  async run<T>(work: (ddl: SchemaDdl, cms: CmsDdl) => Promise<T>): Promise<T> {
    const { client: tenant, schema } = tenantContext.get();
    const client = tenant.isMaster ? null : (this.registry.findByIdentifier(tenant.identifier) ?? null);
    const target = client
      ? await this.databases.adminTarget(client)
      : parseDatabaseUrl(this.config.DATABASE_URL);
    const connection = await this.poolOf(target).connect();
    let broken: Error | undefined;
    try {
      return await runSchemaDdlOn(connection, schema, (ddl) =>
        work(ddl, this.statements.on(ddl, client?.databaseUsername ?? null)),
      );
    } catch (err) {
      // A connection that could not roll back is in an unknown state: it is not reused.
      if ((err as { rollbackFailed?: boolean }).rollbackFailed) broken = err as Error;
      throw err;
    } finally {
      connection.release(broken);
    }
  }

  async onModuleDestroy(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)));
  }

  private poolOf(target: DbTarget): Pool {
    const key = createHash('sha256').update(JSON.stringify(target)).digest('hex');
    let pool = this.pools.get(key);
    if (pool) return pool;
    const created = new Pool({
      host: target.host,
      port: target.port,
      database: target.database,
      user: target.username,
      password: target.password,
      max: MAX_CONNECTIONS,
      idleTimeoutMillis: IDLE_MS,
      allowExitOnIdle: true,
    });
    created.on('error', () => undefined);
    // The last connection gone idle: the pool goes too.
    created.on('remove', () => {
      if (created.totalCount === 0 && this.pools.get(key) === created) {
        this.pools.delete(key);
        void created.end().catch(() => undefined);
      }
    });
    this.pools.set(key, created);
    pool = created;
    return pool;
  }
}
