import { Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import { EntityManager } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { paged } from '../common/pagination/pagination';
import { isoTimestamp } from '../database/sql';
import { companyScope } from '../access/company-rule';
import { recordKind } from '../records/record-changes';
import { RecordsService } from '../records/records.service';
import { CreateUnitDto, UnitDto, UnitQueryDto, UpdateUnitDto } from './dto/unit.dto';
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

const KIND = recordKind(Unit, {
  nameField: 'name',
  deletedFields: ['id', 'name', 'code', 'status', 'companyId'],
});

/** Units are company-scoped: ADMIN and above see every unit of the client, others their company's. */
@Injectable()
export class UnitsService extends RecordsService<Unit> {
  protected readonly kind = KIND;

  /** The HTTP hot path: one raw statement with the total beside the rows. */
  async list(principal: Principal, query: UnitQueryDto) {
    const { page, pageSize } = query;
    const search = query.search ? `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const rows = await this.db.query<UnitRow>(
      `SELECT id, name, code, type, capacity_mw, location, status, company_id, created_by_id,
              ${isoTimestamp('created_at')} AS created_at, ${isoTimestamp('updated_at')} AS updated_at,
              count(*) OVER () AS total
         FROM units
        WHERE ($1::int IS NULL OR company_id = $1)
          AND ($2::text IS NULL OR status = $2)
          AND ($3::text IS NULL OR name ILIKE $3 OR code ILIKE $3)
        ORDER BY id
        LIMIT $4 OFFSET $5`,
      [companyScope(principal), query.status ?? null, search, pageSize, (page - 1) * pageSize],
    );
    const total = rows.length
      ? Number(rows[0].total)
      : await this.count(principal, query.status ?? null, search);
    return paged(rows.map(fromRow), total, page, pageSize);
  }

  async create(principal: Principal, dto: CreateUnitDto) {
    const values = { ...dto, companyId: principal.companyId, createdById: principal.userId };
    return { data: await this.db.transaction((m) => this.insert(m, values)) };
  }

  update(principal: Principal, id: number, dto: UpdateUnitDto) {
    return this.change(principal, id, (_m, before) => ({ ...before, ...dto }));
  }

  /** A unit still named by work orders or failures stays (409). */
  protected override async beforeRemove(m: EntityManager, unit: Unit) {
    const [used] = await m.query(
      `SELECT (SELECT count(*) FROM work_orders WHERE unit_id = $1)::int AS work_orders,
              (SELECT count(*) FROM failures WHERE unit_id = $1)::int AS failures`,
      [unit.id],
    );
    if (used.work_orders || used.failures) {
      throw AppError.conflict(
        `Unit "${unit.name}" still has ${used.work_orders} work order(s) and ${used.failures} failure(s)`,
      );
    }
  }

  private async count(principal: Principal, status: string | null, search: string | null): Promise<number> {
    const [row] = await this.db.run((m) =>
      m.query(
        `SELECT count(*) AS total FROM units
          WHERE ($1::int IS NULL OR company_id = $1) AND ($2::text IS NULL OR status = $2)
            AND ($3::text IS NULL OR name ILIKE $3 OR code ILIKE $3)`,
        [companyScope(principal), status, search],
      ),
    );
    return Number(row.total);
  }
}

function fromRow(r: UnitRow): UnitDto {
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
