import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SecretBox } from '../common/crypto/secret-box';
import { AppConfig } from '../config/app-config';
import { DbTarget, parseDatabaseUrl } from '../database/data-source-factory';
import { MASTER_DATA_SOURCE } from '../database/master-data-source';
import { defaultServerPooler, PoolerAddress } from '../database/pooling';
import { RedisService } from '../redis/redis.service';
import { DatabaseServer } from './entities/database-server.entity';

const CHANNEL = 'database-servers:changed';
/** Held while the default server is registered and clients are back-filled, so replicas take turns. */
const REGISTRATION_LOCK = 7243005;

/**
 * Every replica's view of the database servers (a small table), for the administrative login of a
 * client's server without a query. A change is published over Redis; a server not known yet is
 * read again from the master database, and the whole table every CLIENT_CACHE_REFRESH_MS, so a
 * replica that missed the message (Redis failing over) does not keep an old budget or pooler.
 */
@Injectable()
export class DatabaseServerRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(DatabaseServerRegistry.name);
  private byId = new Map<number, DatabaseServer>();
  private readonly changeListeners: (() => void)[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(MASTER_DATA_SOURCE) private readonly master: DataSource,
    private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly secrets: SecretBox,
  ) {}

  async onModuleInit() {
    await this.redis.subscribe(CHANNEL, () => void this.reload());
    this.timer = setInterval(() => void this.reload(), this.config.CLIENT_CACHE_REFRESH_MS);
    this.timer.unref();
  }

  onModuleDestroy() {
    clearInterval(this.timer);
  }

  /**
   * Registers the server of MULTITENANCY_DB_HOST:PORT (with the master's administrative login) and
   * gives every client without a server the one at its address, registering other addresses found
   * on the way. MULTITENANCY_DB_POOLER_HOST/PORT become that server's pooler when it has none
   * (a pooler set through the API wins). Idempotent: a one-server deployment keeps working unchanged.
   */
  async registerDefault(): Promise<void> {
    const seeded = await this.master.transaction(async (m) => {
      await m.query('SELECT pg_advisory_xact_lock($1)', [REGISTRATION_LOCK]);
      const addresses: { host: string; port: number }[] = await m.query(
        `SELECT DISTINCT database_host AS host, database_port AS port FROM clients WHERE server_id IS NULL`,
      );
      const own = { host: this.config.MULTITENANCY_DB_HOST, port: this.config.MULTITENANCY_DB_PORT };
      for (const { host, port } of [own, ...addresses]) {
        await m.query(
          `INSERT INTO database_servers (name, host, port, state)
           VALUES ($1, $2, $3, 'active') ON CONFLICT DO NOTHING`,
          [`${host}:${port}`.slice(0, 100), host, port],
        );
        await m.query(
          `UPDATE clients c SET server_id = s.id FROM database_servers s
            WHERE c.server_id IS NULL AND lower(s.host) = lower(c.database_host) AND s.port = c.database_port
              AND lower(s.host) = lower($1) AND s.port = $2`,
          [host, port],
        );
      }
      const pooler = defaultServerPooler(this.config);
      if (!pooler) return false;
      const [{ n }]: { n: number }[] = await m.query(
        `WITH seeded AS (
           UPDATE database_servers SET pooler_host = $3, pooler_port = $4
            WHERE lower(host) = lower($1) AND port = $2 AND pooler_host IS NULL RETURNING id)
         SELECT count(*)::int AS n FROM seeded`,
        [own.host, own.port, pooler.host, pooler.port],
      );
      return n > 0;
    });
    // Replicas already running connect to the default server's new pooler too.
    if (seeded) await this.changed();
    else await this.reload();
  }

  /** The default server's id: the one at MULTITENANCY_DB_HOST:PORT. */
  defaultServerId(): number | undefined {
    const { MULTITENANCY_DB_HOST: host, MULTITENANCY_DB_PORT: port } = this.config;
    return [...this.byId.values()].find((s) => s.host.toLowerCase() === host.toLowerCase() && s.port === port)
      ?.id;
  }

  /**
   * The most connections this process may hold to the clients of server `id`: its registered
   * `maxConnections` shared by TENANT_SERVER_PROCESSES processes (at least one). Undefined while
   * the server is not loaded here yet: then the connection ceiling alone bounds them.
   */
  connectionBudget(id: number): number | undefined {
    const server = this.byId.get(id);
    if (!server) return undefined;
    return Math.max(1, Math.floor(server.maxConnections / this.config.TENANT_SERVER_PROCESSES));
  }

  /**
   * The pooler the application pools of server `id`'s clients connect through, from what is loaded
   * here: undefined when it has none (they connect to the server) or is not loaded yet.
   */
  poolerOf(id: number): PoolerAddress | undefined {
    const server = this.byId.get(id);
    if (!server?.poolerHost || !server.poolerPort) return undefined;
    return { host: server.poolerHost, port: server.poolerPort };
  }

  /**
   * The pooler for a client's application pool, loading its server first if needed. A client not
   * placed on a server yet (before the first start's back-fill) gets the default server's pooler
   * from MULTITENANCY_DB_POOLER_HOST/PORT when it lives at MULTITENANCY_DB_HOST:PORT.
   */
  async clientPooler(
    serverId: number | null,
    host: string,
    port: number,
  ): Promise<PoolerAddress | undefined> {
    if (serverId !== null && (await this.get(serverId))) return this.poolerOf(serverId);
    const atDefault =
      host.toLowerCase() === this.config.MULTITENANCY_DB_HOST.toLowerCase() &&
      port === this.config.MULTITENANCY_DB_PORT;
    return atDefault ? defaultServerPooler(this.config) : undefined;
  }

  /** Calls `listener` after every reload of the registry here (a server changed somewhere). */
  onChanged(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /** The registered servers' names by id (metric labels: bounded by the registry). */
  names(): ReadonlyMap<number, string> {
    return new Map([...this.byId.values()].map((s) => [s.id, s.name]));
  }

  async get(id: number): Promise<DatabaseServer | undefined> {
    if (!this.byId.has(id)) await this.reload();
    return this.byId.get(id);
  }

  /**
   * A database at `host:port` (the client's, which follows its server), reached with the server's
   * administrative login: the master's when the server has none of its own, or `serverId` is null.
   */
  async adminTarget(
    serverId: number | null,
    host: string,
    port: number,
    database: string,
  ): Promise<DbTarget> {
    const master = parseDatabaseUrl(this.config.DATABASE_URL);
    const server = serverId === null ? undefined : await this.get(serverId);
    const own = server?.adminUsername;
    return {
      host,
      port,
      database,
      username: own ? server.adminUsername! : master.username,
      password: own
        ? server.adminPassword
          ? this.secrets.decrypt(server.adminPassword)
          : undefined
        : master.password,
    };
  }

  /** Reloads here and tells every other replica to reload. */
  async changed(): Promise<void> {
    await this.reload();
    await this.redis.publish(CHANNEL, String(Date.now()));
  }

  async reload(): Promise<void> {
    try {
      const servers = await this.master.getRepository(DatabaseServer).find();
      this.byId = new Map(servers.map((s) => [s.id, s]));
      for (const listener of this.changeListeners) listener();
    } catch (err) {
      this.logger.warn(`Database server registry reload failed: ${(err as Error).message}`);
    }
  }
}
