import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import { AppConfig } from '../config/app-config';
import { DbTarget, parseDatabaseUrl } from '../database/data-source-factory';
import { defaultServerPooler, PoolerAddress } from '../database/pooling';
import { RedisService } from '../redis/redis.service';
import { DatabaseServer } from './entities/database-server.entity';
import { DatabaseServersRepository, DEFAULT_SERVER_NAME } from './database-servers.repository';
import { PlatformDatabase } from './platform-database';
import { ServerAdminRepository, ServerIdentity } from '../database/server-admin.repository';

const CHANNEL = 'database-servers:changed';

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
    private readonly servers: DatabaseServersRepository,
    private readonly serverAdmin: ServerAdminRepository,
    private readonly platform: PlatformDatabase,
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
    const seeded = await this.platform.transaction(async (tx) => {
      await this.servers.lockRegistration(tx);
      const addresses = await this.servers.unplacedAddresses(tx);
      const own = { host: this.config.MULTITENANCY_DB_HOST, port: this.config.MULTITENANCY_DB_PORT };
      await this.servers.renameDefault(tx, own, DEFAULT_SERVER_NAME);
      for (const [index, address] of [own, ...addresses].entries()) {
        await this.servers.register(tx, index === 0 ? DEFAULT_SERVER_NAME : 'server', address);
        await this.servers.placeClientsAt(tx, address);
      }
      const pooler = defaultServerPooler(this.config);
      if (!pooler) return false;
      return this.servers.seedPooler(tx, own, pooler);
    });
    const identified = await this.identifyUnknown();
    // Replicas already running connect to the default server's new pooler too.
    if (seeded || identified) await this.changed();
    else await this.reload();
  }

  /**
   * Reads and stores the identity and the wal_level of every server registered without them (rows
   * older than those columns, or a server out of reach when last tried); answers whether any was
   * stored. A known identity is kept: only the wal_level is written then. A server still out of
   * reach keeps none: moves compare the live identities anyway.
   */
  async identifyUnknown(): Promise<boolean> {
    const unknown = await this.servers.notFullyIdentified();
    const read = await Promise.all(
      unknown.map(async (server) => {
        try {
          const facts = await this.serverAdmin.factsAt(
            await this.adminTarget(server.id, server.host, server.port, 'postgres'),
          );
          const identified = this.storedIdentity(server) !== null;
          await this.servers.setFacts(
            server.id,
            identified ? { logicalReplication: facts.logicalReplication } : facts,
          );
          return true;
        } catch (err) {
          this.logger.warn(`Database server ${server.id}: identity not read (${(err as Error).message})`);
          return false;
        }
      }),
    );
    return read.some(Boolean);
  }

  /** The identity stored for server `id`, or null when not read yet. */
  storedIdentity(server: DatabaseServer): ServerIdentity | null {
    if (!server.systemIdentifier || !server.clusterPort) return null;
    return { systemIdentifier: server.systemIdentifier, clusterPort: server.clusterPort };
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

  /** The registered servers' ids (metric labels: bounded by the registry, never an address). */
  ids(): number[] {
    return [...this.byId.keys()];
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
    const server = serverId === null ? undefined : await this.get(serverId);
    const password = server?.adminPassword ? this.secrets.decrypt(server.adminPassword) : undefined;
    return this.loginTarget({ host, port, database }, server?.adminUsername, password);
  }

  /** A database reached with `username` and `password`, or the master's login when no username. */
  loginTarget(
    at: { host: string; port: number; database: string },
    username?: string | null,
    password?: string | null,
  ): DbTarget {
    const master = parseDatabaseUrl(this.config.DATABASE_URL);
    if (!username) return { ...at, username: master.username, password: master.password };
    return { ...at, username, password: password ?? undefined };
  }

  /** Reloads here and tells every other replica to reload. */
  async changed(): Promise<void> {
    await this.reload();
    await this.redis.publish(CHANNEL, String(Date.now()));
  }

  async reload(): Promise<void> {
    try {
      const servers = await this.servers.all();
      this.byId = new Map(servers.map((s) => [s.id, s]));
      for (const listener of this.changeListeners) listener();
    } catch (err) {
      this.logger.warn(`Database server registry reload failed: ${(err as Error).message}`);
    }
  }
}
