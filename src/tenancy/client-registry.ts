import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import { AppConfig } from '../config/app-config';
import { DbTarget } from '../database/data-source-factory';
import { Client } from './entities/client.entity';
import { ClientsRepository } from './clients.repository';
import { RedisService } from '../redis/redis.service';
import { LastAccessWrites } from './last-access-writes';

const CHANNEL = 'clients:changed';
const LAST_ACCESS_WRITE_MS = 60_000;

/**
 * Every replica's in-memory view of the platform registry, used to resolve a request to a client
 * without a query. A change is published over Redis and reloaded at once by every replica; a timer
 * reloads as a fallback.
 */
@Injectable()
export class ClientRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ClientRegistry.name);
  private byIdentifier = new Map<string, Client>();
  private byHost = new Map<string, Client>();
  private timer?: NodeJS.Timeout;
  private reloading?: Promise<void>;
  private readonly lastAccess: LastAccessWrites;
  private stopped = false;
  private readonly movedListeners: ((identifier: string) => void)[] = [];

  constructor(
    private readonly clients: ClientsRepository,
    private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly secrets: SecretBox,
  ) {
    this.lastAccess = new LastAccessWrites((ids) => clients.touchLastAccess(ids), LAST_ACCESS_WRITE_MS);
  }

  async onModuleInit() {
    await this.reload();
    await this.redis.subscribe(CHANNEL, () => void this.reloadFresh());
    this.timer = setInterval(() => void this.reload(), this.config.CLIENT_CACHE_REFRESH_MS);
    this.timer.unref();
  }

  onModuleDestroy() {
    return this.stop();
  }

  /**
   * Takes no more reloads or lastAccessAt writes, writes the pending ones and waits for those under
   * way, so that the master pool can close under none of them (TenantDataSources calls this before
   * it closes it).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.allSettled([this.reloading, this.lastAccess.stop()]);
  }

  findByIdentifier(identifier: string): Client | undefined {
    return this.byIdentifier.get(identifier.toLowerCase());
  }

  findByHost(host: string): Client | undefined {
    return this.byHost.get(host.toLowerCase());
  }

  all(): Client[] {
    return [...this.byIdentifier.values()];
  }

  active(): Client[] {
    return this.all().filter((c) => c.status === 'ACTIVE');
  }

  /** Called with a client's identifier when a reload finds its database at another address or name (a move, a restore in place). */
  onMoved(listener: (identifier: string) => void): void {
    this.movedListeners.push(listener);
  }

  /** Reloads here and tells every other replica to reload. */
  async changed(): Promise<void> {
    await Promise.all([this.reloadFresh(), this.redis.publish(CHANNEL, String(Date.now()))]);
  }

  connectionTarget(client: Client): DbTarget {
    return {
      host: client.databaseHost,
      port: client.databasePort,
      database: client.databaseName,
      username: client.databaseUsername,
      password: client.databasePassword ? this.secrets.decrypt(client.databasePassword) : undefined,
    };
  }

  /**
   * Records lastAccessAt off the request path: the clients touched in a minute are written together
   * in one statement by a timer (and at shutdown).
   */
  touch(client: Client) {
    if (!this.stopped) this.lastAccess.add(client.id);
  }

  /** A reload that starts after any one in flight, so it sees every change committed before the call. */
  private async reloadFresh(): Promise<void> {
    await this.reloading;
    return this.reload();
  }

  reload(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.reloading ??= this.load().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  private async load() {
    try {
      const clients = await this.clients.notDeleted();
      const byIdentifier = new Map<string, Client>();
      const byHost = new Map<string, Client>();
      const base = this.config.MULTITENANCY_BASE_DOMAIN?.toLowerCase();
      for (const client of clients) {
        byIdentifier.set(client.identifier.toLowerCase(), client);
        if (client.subdomain && base) byHost.set(`${client.subdomain.toLowerCase()}.${base}`, client);
        if (client.customDomain) byHost.set(client.customDomain.toLowerCase(), client);
      }
      const previous = this.byIdentifier;
      this.byIdentifier = byIdentifier;
      this.byHost = byHost;
      for (const [identifier, client] of byIdentifier) {
        const before = previous.get(identifier);
        if (
          before &&
          (before.databaseHost !== client.databaseHost ||
            before.databasePort !== client.databasePort ||
            before.databaseName !== client.databaseName)
        ) {
          for (const listener of this.movedListeners) listener(client.identifier);
        }
      }
    } catch (err) {
      this.logger.warn(`Client registry reload failed: ${(err as Error).message}`);
    }
  }
}
