import { Injectable } from '@nestjs/common';
import { Paged, paged } from '../../common/pagination/pagination';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AuditSettings } from '../../audit-trail/audit.settings';
import { AuditFilter, whereClause } from './audit-filter';
import { AuditEntryView, AuditRow, ENTRY_COLUMNS, toEntryView } from './audit-row';

export interface AuditPage extends Paged<AuditEntryView> {
  meta: Paged<AuditEntryView>['meta'] & { totalExact: boolean };
}

type Manager = Parameters<Parameters<TenantDatabase['run']>[0]>[0];

/**
 * Reads the current tenant's audit trail (the sandbox's own trail inside a sandbox). Every list is
 * an index walk on (filter..., timestamp DESC, id DESC); the total is counted beside it.
 */
@Injectable()
export class AuditQueryService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly settings: AuditSettings,
  ) {}

  async list(filter: AuditFilter, page: number, size: number): Promise<AuditPage> {
    const { sql, params } = whereClause(filter);
    const [rows, count] = await this.db.run((m) =>
      Promise.all([
        m.query<AuditRow[]>(
          `SELECT ${ENTRY_COLUMNS} FROM audit_logs WHERE ${sql}
            ORDER BY timestamp DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, size, page * size],
        ),
        this.count(m, sql, params),
      ]),
    );
    const body = paged(rows.map(toEntryView), count.total, page, size);
    return { ...body, meta: { ...body.meta, totalExact: count.exact } };
  }

  /** Exact up to AUDIT_EXACT_COUNT_LIMIT matches (a bounded index walk), else the planner's estimate. */
  private async count(
    m: Manager,
    sql: string,
    params: unknown[],
  ): Promise<{ total: number; exact: boolean }> {
    const cap = this.settings.AUDIT_EXACT_COUNT_LIMIT;
    const bounded = cap ? ` LIMIT ${cap + 1}` : '';
    const [row] = await m.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_logs WHERE ${sql}${bounded}) x`,
      params,
    );
    if (!cap || row.n <= cap) return { total: row.n, exact: true };
    const [plan] = await m.query<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }[]>(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM audit_logs WHERE ${sql}`,
      params,
    );
    return { total: Math.max(cap + 1, Math.round(plan['QUERY PLAN'][0].Plan['Plan Rows'])), exact: false };
  }
  /** One entity's trail: `{ data }`, newest first. */
  async trail(entityType: string, entityId: number, companyId: number | null, page: number, size: number) {
    const { sql, params } = whereClause({ companyId, entityType, entityId });
    const rows = await this.db.run<AuditRow[]>((m) =>
      m.query(
        `SELECT ${ENTRY_COLUMNS} FROM audit_logs WHERE ${sql}
          ORDER BY timestamp DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, size, page * size],
      ),
    );
    return { data: rows.map(toEntryView) };
  }
}
