import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { PerClientRunner } from '../tenancy/per-client-runner';
import { TenantClient } from '../tenancy/tenant-context';
import { EventsSettings } from './events.settings';
import { OutboxRelay } from './outbox-relay';
import { OutboxRepository } from './outbox.repository';
import { OutboxSignals } from './outbox-signals';
import { allTenants } from './tenants';

/**
 * The fallback for lost signals (a crash between commit and signal, Redis down at commit): every
 * EVENT_RELAY_FULL_SCAN_MS (workers only) it looks into every tenant's outbox,
 * EVENT_RELAY_SWEEP_CONCURRENCY tenants at a time, and signals those holding events. A Redis slot
 * per tenant and period makes one replica sweep each tenant.
 */
@Injectable()
export class OutboxSweep implements OnModuleDestroy {
  private readonly logger = new Logger(OutboxSweep.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<string[]>;
  private stopped = false;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly runner: PerClientRunner,
    private readonly signals: OutboxSignals,
    private readonly relay: OutboxRelay,
    private readonly settings: EventsSettings,
  ) {}

  start() {
    this.timer = setInterval(() => {
      this.running ??= this.sweepOnce().finally(() => (this.running = undefined));
    }, this.settings.EVENT_RELAY_FULL_SCAN_MS);
    this.timer.unref();
  }

  async onModuleDestroy() {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** One sweep; answers the tenants found holding events. */
  async sweepOnce(): Promise<string[]> {
    const queue = allTenants(this.runner);
    const found: string[] = [];
    const lane = async () => {
      for (let client = queue.shift(); client && !this.stopped; client = queue.shift()) {
        if (await this.holdsEvents(client).catch((err: Error) => this.warn(client, err)))
          found.push(client.identifier);
      }
    };
    await Promise.all(Array.from({ length: this.settings.EVENT_RELAY_SWEEP_CONCURRENCY }, lane));
    return found;
  }

  private async holdsEvents(client: TenantClient): Promise<boolean> {
    if (!(await this.signals.claimSweep(client.identifier, this.settings.EVENT_RELAY_FULL_SCAN_MS)))
      return false;
    const oldest = await this.outbox.oldest(client);
    if (!oldest) return false;
    await this.relay.committed(client, oldest.getTime());
    return true;
  }

  private warn(client: TenantClient, err: Error): false {
    this.logger.warn(`Outbox sweep ${client.identifier}: ${err.message}`);
    return false;
  }
}
