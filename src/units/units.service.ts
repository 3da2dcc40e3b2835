import { Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import { EntityManager } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { paged } from '../common/pagination/pagination';
import { companyScope } from '../access/company-rule';
import { RecordChanges, recordKind } from '../records/record-changes';
import { asksEngine } from '../records/engine-query';
import { parseFilter, RecordEngine } from '../records/engine/record-engine';
import { TenantDatabase } from '../tenancy/tenant-database';
import { UnitsRepository } from './units.repository';
import { RecordsService } from '../records/records.service';
import { CreateUnitDto, UnitQueryDto, UpdateUnitDto } from './dto/unit.dto';
import { Unit } from './entities/unit.entity';
import { UNIT_TYPE } from './unit.record-type';

const KIND = recordKind(Unit, {
  nameField: 'name',
  deletedFields: ['id', 'name', 'code', 'status', 'companyId'],
});

/** Units are company-scoped: ADMIN and above see every unit of the client, others their company's. */
@Injectable()
export class UnitsService extends RecordsService<Unit> {
  protected readonly kind = KIND;
  protected readonly type = UNIT_TYPE;

  constructor(
    db: TenantDatabase,
    changes: RecordChanges,
    engine: RecordEngine,
    private readonly units: UnitsRepository,
  ) {
    super(db, changes, engine);
  }

  /**
   * The HTTP hot path: one statement with the total beside the rows. With the engine's `filter`,
   * `fields` or `after`, the record engine answers (the same order, by id).
   */
  async list(principal: Principal, query: UnitQueryDto) {
    const { page, pageSize } = query;
    if (asksEngine(query)) {
      const search = query.search
        ? { $or: [{ name: { $icontains: query.search } }, { code: { $icontains: query.search } }] }
        : undefined;
      const given = parseFilter(query.filter);
      const filter = search ? (given === undefined ? search : { $and: [given, search] }) : given;
      return this.engine.list(
        UNIT_TYPE,
        principal,
        { ...query, sort: 'id', order: 'ASC' },
        {
          filter,
          equals: { status: query.status },
          cursors: true,
        },
      );
    }
    const search = query.search ? `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const filter = { scope: companyScope(principal), status: query.status ?? null, search };
    const { rows, total } = await this.units.page(filter, pageSize, (page - 1) * pageSize);
    return paged(rows, total ?? (await this.units.count(filter)), page, pageSize);
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
    const used = await this.units.usage(m, unit.id);
    if (used.workOrders || used.failures) {
      throw AppError.conflict(
        `Unit "${unit.name}" still has ${used.workOrders} work order(s) and ${used.failures} failure(s)`,
      );
    }
  }
}
