import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { companyCondition } from '../access/company-rule';
import { isoTimestamp } from '../database/sql';
import { SqlExample } from '../database/sql-example';
import { TenantDatabase } from '../tenancy/tenant-database';
import { UnitDto } from './dto/unit.dto';
import { Unit } from './entities/unit.entity';

interface UnitRow {
  id: number;
  name: string;
  code: string | null;
  type: string | null;
  capacity_mw: string | null;
  location: string | null;
  status: Unit['status'];
  company_id: number | null;
  created_by_id: number | null;
  /** ISO 8601 text (isoTimestamp). */
  created_at: string;
  updated_at: string;
  total: string;
}

/** What the units list filters by: the company scope, a status, a name or code pattern (ILIKE). */
export interface UnitListFilter {
  scope: number | null;
  status: string | null;
  /** An ILIKE pattern, its wildcards escaped by the caller. */
  search: string | null;
}

const CONDITIONS = `${companyCondition('company_id', 1)}
          AND ($2::text IS NULL OR status = $2)
          AND ($3::text IS NULL OR name ILIKE $3 OR code ILIKE $3)`;

/** The units table's own statements: the list hot path and the check before a delete. */
@Injectable()
export class UnitsRepository {
  constructor(private readonly db: TenantDatabase) {}

  /** One page by id with the total beside the rows (one statement, the HTTP hot path). */
  @SqlExample([{ scope: 7, status: null, search: null }, 25, 0])
  @SqlExample([{ scope: null, status: 'OPERATIONAL', search: '%gt\\_1%' }, 25, 50])
  async page(
    filter: UnitListFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: UnitDto[]; total: number | null }> {
    const rows = await this.db.query<UnitRow>(
      `SELECT id, name, code, type, capacity_mw, location, status, company_id, created_by_id,
              ${isoTimestamp('created_at')} AS created_at, ${isoTimestamp('updated_at')} AS updated_at,
              count(*) OVER () AS total
         FROM units
        WHERE ${CONDITIONS}
        ORDER BY id
        LIMIT $4 OFFSET $5`,
      [filter.scope, filter.status, filter.search, limit, offset],
    );
    return { rows: rows.map(toUnit), total: rows.length ? Number(rows[0].total) : null };
  }

  /** The units the filter selects (when a page past the end has no row to carry the total). */
  @SqlExample([{ scope: 7, status: 'OPERATIONAL', search: null }])
  async count(filter: UnitListFilter): Promise<number> {
    const [row] = await this.db.query<{ total: string }>(
      `SELECT count(*) AS total FROM units
          WHERE ${CONDITIONS}`,
      [filter.scope, filter.status, filter.search],
    );
    return Number(row.total);
  }

  /** How many work orders and failures still name the unit. */
  @SqlExample((c) => [c.manager, 1])
  async usage(m: EntityManager, unitId: number): Promise<{ workOrders: number; failures: number }> {
    const [used] = await m.query<{ work_orders: number; failures: number }[]>(
      `SELECT (SELECT count(*) FROM work_orders WHERE unit_id = $1)::int AS work_orders,
              (SELECT count(*) FROM failures WHERE unit_id = $1)::int AS failures`,
      [unitId],
    );
    return { workOrders: used.work_orders, failures: used.failures };
  }
}

/** The one mapper of a units row. */
function toUnit(r: UnitRow): UnitDto {
  return {
    id: r.id,
    name: r.name,
    code: r.code,
    type: r.type,
    capacityMw: r.capacity_mw === null ? null : Number(r.capacity_mw),
    location: r.location,
    status: r.status,
    companyId: r.company_id,
    createdById: r.created_by_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
