import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { TenantClient } from './tenant-context';
import { PerClientRunner } from './per-client-runner';

/**
 * A round of work over every active client, started every `intervalMs` on each replica; the
 * runner's Redis lock lets one replica per client through per `slotMs`. One round runs at a time,
 * and shutdown waits for the one under way before the pools close.
 */
export abstract class PeriodicClientRound implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(this.constructor.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<string[]>;

  protected constructor(
    private readonly runner: PerClientRunner,
    private readonly task: string,
  ) {}

  /** How often a replica starts a round; 0 turns the rounds off. */
  protected abstract intervalMs(): number;
  /** The lock slot: each client's work runs once per slot across replicas. */
  protected abstract slotMs(): number;
  protected abstract runFor(client: TenantClient): Promise<unknown>;

  onApplicationBootstrap() {
    const interval = this.intervalMs();
    if (!interval) return;
    this.timer = setInterval(() => {
      this.running ??= this.tick().finally(() => (this.running = undefined));
    }, interval);
    this.timer.unref();
  }

  async onModuleDestroy() {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One round over every active client; returns the identifiers this replica handled. */
  async tick(): Promise<string[]> {
    try {
      return await this.runner.runForEachClient(this.task, this.slotMs(), async (client) => {
        await this.runFor(client);
      });
    } catch (err) {
      this.logger.error(`${this.task} round failed: ${(err as Error).message}`);
      return [];
    }
  }
}
