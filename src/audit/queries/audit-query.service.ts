import type { EntityManager } from 'typeorm';
import { Injectable } from '@nestjs/common';
import { Paged, paged } from '../../common/pagination/pagination';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AuditSettings } from '../../audit-trail/audit.settings';
import { AuditEntriesRepository } from './audit-entries.repository';
import { AuditFilter } from './audit-filter';
import { AuditEntryView, toEntryView } from './audit-row';

export interface AuditPage extends Paged<AuditEntryView> {
  meta: Paged<AuditEntryView>['meta'] & { totalExact: boolean };
}

/**
 * Reads the current tenant's audit trail (the sandbox's own trail inside a sandbox). Every list is
 * an index walk on (filter..., timestamp DESC, id DESC); the total is counted beside it.
 */
@Injectable()
export class AuditQueryService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly settings: AuditSettings,
    private readonly entries: AuditEntriesRepository,
  ) {}

  async list(filter: AuditFilter, page: number, size: number): Promise<AuditPage> {
    const [rows, count] = await this.db.run((m) =>
      Promise.all([this.entries.page(m, filter, page, size), this.count(m, filter)]),
    );
    const body = paged(rows.map(toEntryView), count.total, page, size);
    return { ...body, meta: { ...body.meta, totalExact: count.exact } };
  }

  /** Exact up to AUDIT_EXACT_COUNT_LIMIT matches (a bounded index walk), else the planner's estimate. */
  private async count(m: EntityManager, filter: AuditFilter): Promise<{ total: number; exact: boolean }> {
    const cap = this.settings.AUDIT_EXACT_COUNT_LIMIT;
    const n = await this.entries.countUpTo(m, filter, cap);
    if (!cap || n <= cap) return { total: n, exact: true };
    const estimate = await this.entries.estimate(m, filter);
    return { total: Math.max(cap + 1, Math.round(estimate)), exact: false };
  }

  /** One entity's trail: `{ data }`, newest first. */
  async trail(entityType: string, entityId: number, companyId: number | null, page: number, size: number) {
    const rows = await this.db.run((m) =>
      this.entries.page(m, { companyId, entityType, entityId }, page, size),
    );
    return { data: rows.map(toEntryView) };
  }
}
