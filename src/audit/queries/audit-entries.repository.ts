import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlExample, SqlNotRun } from '../../database/sql-example';
import { AuditFilter, whereClause } from './audit-filter';
import { AuditRow, ENTRY_COLUMNS } from './audit-row';

const EXPORT_CURSOR = 'audit_export';
const EXAMPLE_FILTER: AuditFilter = { companyId: 2, entityType: 'Unit', entityId: 7 };

/** Reads of the current tenant's audit trail: pages, counts and the export cursor. */
@Injectable()
export class AuditEntriesRepository {
  /** One page, newest first: an index walk on (filter..., timestamp DESC, id DESC). */
  @SqlExample((c) => [c.manager, {}, 0, 50])
  @SqlExample((c) => [c.manager, EXAMPLE_FILTER, 1, 20])
  page(m: EntityManager, filter: AuditFilter, page: number, size: number): Promise<AuditRow[]> {
    const { sql, params } = whereClause(filter);
    return m.query<AuditRow[]>(
      `SELECT ${ENTRY_COLUMNS} FROM audit_logs WHERE ${sql}
            ORDER BY timestamp DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, size, page * size],
    );
  }

  /** Matches counted up to `cap` (a bounded index walk); no cap counts them all. */
  @SqlExample((c) => [c.manager, EXAMPLE_FILTER, 10_000])
  @SqlExample((c) => [c.manager, {}, 0])
  async countUpTo(m: EntityManager, filter: AuditFilter, cap: number): Promise<number> {
    const { sql, params } = whereClause(filter);
    const bounded = cap ? ` LIMIT ${cap + 1}` : '';
    const [row] = await m.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_logs WHERE ${sql}${bounded}) x`,
      params,
    );
    return row.n;
  }

  /** The planner's estimate of the matches. */
  @SqlExample((c) => [c.manager, EXAMPLE_FILTER])
  async estimate(m: EntityManager, filter: AuditFilter): Promise<number> {
    const { sql, params } = whereClause(filter);
    const [plan] = await m.query<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }[]>(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM audit_logs WHERE ${sql}`,
      params,
    );
    return plan['QUERY PLAN'][0].Plan['Plan Rows'];
  }

  /** Opens the export cursor over the matches, newest first (in the caller's transaction). */
  @SqlExample((c) => [c.manager, EXAMPLE_FILTER])
  async openExport(tx: EntityManager, filter: AuditFilter): Promise<void> {
    const { sql, params } = whereClause(filter);
    await tx.query(
      `DECLARE ${EXPORT_CURSOR} NO SCROLL CURSOR FOR
             SELECT ${ENTRY_COLUMNS} FROM audit_logs WHERE ${sql} ORDER BY timestamp DESC, id DESC`,
      params,
    );
  }

  /** The next rows of the export cursor. */
  @SqlNotRun('reads the cursor openExport declares in the same transaction')
  fetchExport(tx: EntityManager, rows: number): Promise<AuditRow[]> {
    return tx.query(`FETCH ${rows} FROM ${EXPORT_CURSOR}`);
  }

  @SqlNotRun('closes the cursor openExport declares in the same transaction')
  async closeExport(tx: EntityManager): Promise<void> {
    await tx.query(`CLOSE ${EXPORT_CURSOR}`);
  }
}
