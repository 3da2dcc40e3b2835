import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import pLimit from 'p-limit';
import { Client } from '../tenancy/entities/client.entity';
import { MigratingClients } from '../tenancy/migrating-clients';
import { BackgroundMigrator } from './background-migrator';
import { ClientMigrator } from './client-migrator';
import { PlatformSettings } from './platform.settings';

const FIRST_RETRY_MS = 5_000;
const LAST_RETRY_MS = 300_000;

/**
 * The migrations of every client at start, in the background: each client answers 503
 * CLIENT_MIGRATING until its database is known to be current, CLIENT_MIGRATION_CONCURRENCY clients
 * at a time. A client whose migration fails stays refused and is tried again later (5 s, doubling
 * up to 5 min), so a database that was unreachable for a while catches up on its own.
 */
@Injectable()
export class StartupMigrations implements OnModuleDestroy {
  private readonly logger = new Logger(StartupMigrations.name);
  private readonly limit: pLimit.Limit;
  private readonly retries = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<boolean>>();
  private stopped = false;
  private firstPass: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly migrator: ClientMigrator,
    private readonly migrating: MigratingClients,
    private readonly background: BackgroundMigrator,
    settings: PlatformSettings,
  ) {
    this.limit = pLimit(settings.CLIENT_MIGRATION_CONCURRENCY);
  }

  /** Refuses every client at once, then migrates them in the background; returns at once. */
  begin(clients: Client[]): void {
    for (const client of clients) this.migrating.add(client.id);
    const started = Date.now();
    this.firstPass = Promise.all(clients.map((client) => this.limit(() => this.attempt(client, 1)))).then(
      (results) => {
        const failed = results.filter((ok) => !ok).length;
        this.logger.log(
          `Start-up migrations: ${clients.length - failed} of ${clients.length} client(s) current in ${Date.now() - started} ms`,
        );
        return failed;
      },
    );
  }

  /** Resolves once every client was tried once, with the number that failed. */
  settled(): Promise<number> {
    return this.firstPass;
  }

  async onModuleDestroy() {
    this.stopped = true;
    for (const timer of this.retries) clearTimeout(timer);
    this.limit.clearQueue();
    await Promise.allSettled([...this.running]);
  }

  private attempt(client: Client, attempt: number): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    const run = this.migrator.migrate(client).then(
      () => {
        this.migrating.delete(client.id);
        this.background.start(client);
        return true;
      },
      (err: Error) => {
        const delay = Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), LAST_RETRY_MS);
        this.logger.error(
          `Auto-migration of ${client.identifier} failed (attempt ${attempt}, next in ${delay / 1000} s): ${err.message}`,
        );
        this.retryLater(client, attempt + 1, delay);
        return false;
      },
    );
    this.running.add(run);
    return run.finally(() => this.running.delete(run));
  }

  private retryLater(client: Client, attempt: number, delayMs: number) {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.retries.delete(timer);
      void this.limit(() => this.attempt(client, attempt));
    }, delayMs);
    timer.unref();
    this.retries.add(timer);
  }
}
