import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PerClientRunner } from '../../tenancy/per-client-runner';
import { AuditSettings } from '../audit.settings';
import { AuditRetentionService } from './audit-retention.service';

/** Applies the retention policies every AUDIT_RETENTION_INTERVAL_MS, once per client across replicas. */
@Injectable()
export class RetentionScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RetentionScheduler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<string[]>;

  constructor(
    private readonly settings: AuditSettings,
    private readonly runner: PerClientRunner,
    private readonly retention: AuditRetentionService,
  ) {}

  onApplicationBootstrap() {
    const period = this.settings.AUDIT_RETENTION_INTERVAL_MS;
    if (!period) return;
    this.timer = setInterval(() => {
      // One round at a time; shutdown waits for the one under way before the pools close.
      this.running ??= this.tick().finally(() => (this.running = undefined));
    }, period);
    this.timer.unref();
  }

  async onModuleDestroy() {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One round over every active client; returns the identifiers this replica handled. */
  async tick(): Promise<string[]> {
    try {
      return await this.runner.runForEachClient(
        'audit-retention',
        this.settings.AUDIT_RETENTION_INTERVAL_MS || 86_400_000,
        async (client) => {
          await this.retention.apply(client);
        },
      );
    } catch (err) {
      this.logger.error(`Audit retention round failed: ${(err as Error).message}`);
      return [];
    }
  }
}
