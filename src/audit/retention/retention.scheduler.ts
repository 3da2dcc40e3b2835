import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PerClientRunner } from '../../tenancy/per-client-runner';
import { AuditSettings } from '../audit.settings';
import { AuditRetentionService } from './audit-retention.service';

/** Applies the retention policies every AUDIT_RETENTION_INTERVAL_MS, once per client across replicas. */
@Injectable()
export class RetentionScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RetentionScheduler.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly settings: AuditSettings,
    private readonly runner: PerClientRunner,
    private readonly retention: AuditRetentionService,
  ) {}

  onApplicationBootstrap() {
    const period = this.settings.AUDIT_RETENTION_INTERVAL_MS;
    if (!period) return;
    this.timer = setInterval(() => void this.tick(), period);
    this.timer.unref();
  }

  onModuleDestroy() {
    if (this.timer) clearInterval(this.timer);
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
