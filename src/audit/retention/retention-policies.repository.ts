import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlExample } from '../../database/sql-example';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AuditRetentionPolicy } from '../entities/retention-policy.entity';

/** Retention policies per entity type (identity-level configuration: `public` only). */
@Injectable()
export class RetentionPoliciesRepository {
  constructor(private readonly db: TenantDatabase) {}

  @SqlExample()
  list(): Promise<AuditRetentionPolicy[]> {
    return this.db.production((m) =>
      m.getRepository(AuditRetentionPolicy).find({ order: { entityType: 'ASC' } }),
    );
  }

  /** One policy, locked until the caller's transaction ends. */
  @SqlExample((c) => [c.manager, 'Unit'])
  lock(tx: EntityManager, entityType: string): Promise<AuditRetentionPolicy | null> {
    return tx
      .getRepository(AuditRetentionPolicy)
      .findOne({ where: { entityType }, lock: { mode: 'pessimistic_write' } });
  }

  /** Writes a policy over `before` (null: a new one). */
  @SqlExample((c) => [c.manager, null, { entityType: 'Unit', retentionDays: 90, updatedById: 3 }])
  save(
    tx: EntityManager,
    before: AuditRetentionPolicy | null,
    policy: Pick<AuditRetentionPolicy, 'entityType' | 'retentionDays' | 'updatedById'>,
  ): Promise<AuditRetentionPolicy> {
    return tx.getRepository(AuditRetentionPolicy).save({ ...(before ?? {}), ...policy });
  }

  @SqlExample((c) => [c.manager, 'Unit'])
  async remove(tx: EntityManager, entityType: string): Promise<void> {
    await tx.getRepository(AuditRetentionPolicy).delete({ entityType });
  }
}
