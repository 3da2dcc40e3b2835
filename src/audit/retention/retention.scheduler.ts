import { Injectable } from '@nestjs/common';
import { PerClientRunner } from '../../tenancy/per-client-runner';
import { PeriodicClientRound } from '../../tenancy/periodic-client-round';
import type { TenantClient } from '../../tenancy/tenant-context';
import { AuditSettings } from '../../audit-trail/audit.settings';
import { AuditRetentionService } from './audit-retention.service';

/** Applies the retention policies every AUDIT_RETENTION_INTERVAL_MS, once per client across replicas. */
@Injectable()
export class RetentionScheduler extends PeriodicClientRound {
  constructor(
    private readonly settings: AuditSettings,
    runner: PerClientRunner,
    private readonly retention: AuditRetentionService,
  ) {
    super(runner, 'audit-retention');
  }

  protected intervalMs() {
    return this.settings.AUDIT_RETENTION_INTERVAL_MS;
  }

  protected slotMs() {
    return this.settings.AUDIT_RETENTION_INTERVAL_MS || 86_400_000;
  }

  protected runFor(client: TenantClient) {
    return this.retention.apply(client);
  }
}
