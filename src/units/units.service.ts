import { Injectable } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { AppError } from '../common/errors/app-error';
import { paged } from '../common/pagination/pagination';
import { isoTimestamp } from '../database/sql';
import { TenantDatabase } from '../tenancy/tenant-database';
import { AssetChanges } from './asset-changes';
import { CreateUnitDto, UnitDto, UnitQueryDto, UpdateUnitDto } from './dto/unit.dto';
import { Unit } from './entities/unit.entity';
import { companyScope, findScoped } from './unit-scope';

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

const toView = (u: Unit): UnitDto => ({ ...u });
const KIND = { entityType: 'Unit', event: 'unit' };

/** Units are company-scoped: ADMIN and above see every unit of the client, others their company's. */
@Injectable()
export class UnitsService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly changes: AssetChanges,
  ) {}

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

  async get(principal: Principal, id: number) {
    return { data: toView(await this.db.run((m) => findScoped(m, Unit, 'Unit', principal, id))) };
  }

  async create(principal: Principal, dto: CreateUnitDto) {
    const unit = await this.db.transaction(async (m) => {
      const saved = await m
        .getRepository(Unit)
        .save(
          m
            .getRepository(Unit)
            .create({ ...dto, companyId: principal.companyId, createdById: principal.userId }),
        );
      await this.changes.created(m, KIND, saved, `Unit "${saved.name}" created`);
      return saved;
    });
    return { data: toView(unit) };
  }

  async update(principal: Principal, id: number, dto: UpdateUnitDto) {
    const unit = await this.db.transaction(async (m) => {
      const before = await findScoped(m, Unit, 'Unit', principal, id, true);
      const after = await m.getRepository(Unit).save({ ...before, ...dto });
      await this.changes.updated(m, KIND, before, after, `Unit "${after.name}" updated`);
      return after;
    });
    return { data: toView(unit) };
  }

  async remove(principal: Principal, id: number) {
    await this.db.transaction(async (m) => {
      const unit = await findScoped(m, Unit, 'Unit', principal, id, true);
      const [used] = await m.query(
        `SELECT (SELECT count(*) FROM work_orders WHERE unit_id = $1)::int AS work_orders,
                (SELECT count(*) FROM failures WHERE unit_id = $1)::int AS failures`,
        [id],
      );
      if (used.work_orders || used.failures) {
        throw AppError.conflict(
          `Unit "${unit.name}" still has ${used.work_orders} work order(s) and ${used.failures} failure(s)`,
        );
      }
      await m.getRepository(Unit).delete({ id });
      const { name, code, status, companyId } = unit;
      await this.changes.deleted(m, KIND, unit, `Unit "${name}" deleted`, {
        id,
        name,
        code,
        status,
        companyId,
      });
    });
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
