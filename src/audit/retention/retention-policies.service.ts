import { Injectable } from '@nestjs/common';
import { Principal } from '../../access/principal';
import { AppError } from '../../common/errors/app-error';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AuditWriter, diffChanges } from '../../audit-trail/audit-writer';
import { AuditSettings } from '../../audit-trail/audit.settings';
import { AuditRetentionPolicy, DEFAULT_POLICY_KEY } from '../entities/retention-policy.entity';
import { RetentionPoliciesRepository } from './retention-policies.repository';

const view = (p: AuditRetentionPolicy) => ({
  entityType: p.entityType,
  retentionDays: p.retentionDays,
  updatedById: p.updatedById,
  updatedAt: new Date(p.updatedAt).toISOString(),
});

/** Retention policies per entity type (identity-level configuration: `public` only), audited. */
@Injectable()
export class RetentionPoliciesService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly settings: AuditSettings,
    private readonly policies: RetentionPoliciesRepository,
  ) {}

  async list() {
    const policies = await this.policies.list();
    const own = policies.find((p) => p.entityType === DEFAULT_POLICY_KEY);
    return {
      data: {
        defaultRetentionDays: own?.retentionDays ?? this.settings.AUDIT_RETENTION_DAYS_DEFAULT,
        policies: policies.map(view),
      },
    };
  }

  async set(principal: Principal, entityType: string, retentionDays: number) {
    const ds = await this.db.dataSource();
    const saved = await ds.transaction(async (m) => {
      const before = await this.policies.lock(m, entityType);
      const after = await this.policies.save(m, before, {
        entityType,
        retentionDays,
        updatedById: principal.userId,
      });
      await this.audit.record(m, {
        action: before ? 'UPDATE' : 'CREATE',
        entityType: 'AuditRetentionPolicy',
        message: `Audit retention for ${entityType} set to ${retentionDays} days`,
        changes: diffChanges(before ? { retentionDays: before.retentionDays } : null, { retentionDays }),
        metadata: { policyEntityType: entityType },
      });
      return after;
    });
    return { data: view(saved) };
  }

  async remove(entityType: string) {
    const ds = await this.db.dataSource();
    await ds.transaction(async (m) => {
      const before = await this.policies.lock(m, entityType);
      if (!before) throw AppError.notFound('Retention policy');
      await this.policies.remove(m, entityType);
      await this.audit.record(m, {
        action: 'DELETE',
        entityType: 'AuditRetentionPolicy',
        message: `Audit retention policy for ${entityType} removed`,
        changes: diffChanges({ retentionDays: before.retentionDays }, null),
        metadata: { policyEntityType: entityType },
      });
    });
  }
}
