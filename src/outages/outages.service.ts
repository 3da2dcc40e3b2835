import { Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import { Failure } from '../failures';
import { checkReferences } from '../records/check-references';
import { withDates } from '../common/validation/datetime';
import { findScoped, rejectNulls } from '../records/find-scoped';
import { companyScope } from '../access/company-rule';
import { RecordEngine } from '../records/engine/record-engine';
import { RecordChanges } from '../records/record-changes';
import { TenantDatabase } from '../tenancy/tenant-database';
import { OutagesRepository } from './outages.repository';
import { endAfterStart, ensureOrdered } from '../records/ordered-fields';
import { recordKind } from '../records/record-changes';
import { RecordsService } from '../records/records.service';
import { ensureEditable } from '../records/transitions';
import { Unit } from '../units';
import { User } from '../identity';
import { WorkOrder } from '../work-orders';
import { CreateOutageDto, OUTAGE_DATES, OutageQueryDto, UpdateOutageDto } from './dto/outage.dto';
import { OutageEvent } from './entities/outage-event.entity';
import { OUTAGE_MOVES } from './outage-moves';
import { OUTAGE_TYPE } from './outage.record-type';

export const OUTAGE_KIND = recordKind(OutageEvent, {
  event: 'outage',
  label: 'Outage',
  nameField: 'outageNumber',
  deletedFields: ['id', 'outageNumber', 'title', 'status', 'unitId', 'companyId'],
});

const REFERENCES = [
  { entity: Unit, field: 'unitId', names: 'a unit of this company' },
  { entity: WorkOrder, field: 'workOrderId', names: 'a work order of this company' },
  { entity: Failure, field: 'failureId', names: 'a failure of this company' },
  { entity: User, field: 'requestedById', names: 'a user of this company' },
];

const ORDER = [
  endAfterStart('plannedStart', 'plannedEnd'),
  {
    low: 'lostCapacityMw',
    high: 'capacityMw',
    field: 'lostCapacityMw',
    message: 'lostCapacityMw must not exceed capacityMw',
  },
];

type Page = { page: number; pageSize: number };

/** Outages of the caller's company: CRUD (soft delete), the fixed listings and the named moves. */
@Injectable()
export class OutagesService extends RecordsService<OutageEvent> {
  protected readonly kind = OUTAGE_KIND;
  protected readonly type = OUTAGE_TYPE;

  constructor(
    db: TenantDatabase,
    changes: RecordChanges,
    engine: RecordEngine,
    private readonly outages: OutagesRepository,
  ) {
    super(db, changes, engine);
  }

  list(principal: Principal, q: OutageQueryDto) {
    const { status, outageType, approvalStatus } = q;
    return this.listRecords(principal, q, { status, outageType, approvalStatus });
  }

  count(principal: Principal) {
    return this.countRecords(principal);
  }

  /** ACTIVE outages, latest actual start first, those not started yet last. */
  active(principal: Principal, page: Page) {
    return this.db.run((m) => this.outages.active(m, companyScope(principal), page));
  }

  /** Outages of one unit (which must be the caller's: 404 otherwise), newest created first. */
  async ofUnit(principal: Principal, unitId: number, page: Page) {
    return this.db.run(async (m) => {
      await findScoped(m, Unit, 'Unit', principal, unitId);
      return this.outages.ofUnit(m, companyScope(principal), unitId, page);
    });
  }

  async create(principal: Principal, dto: CreateOutageDto) {
    const data = await this.db.transaction(async (m) => {
      const values = withDates(dto, OUTAGE_DATES) as unknown as Partial<OutageEvent>;
      ensureOrdered(values, ORDER);
      await checkReferences(m, principal, dto, REFERENCES);
      return this.insert(m, {
        ...values,
        requestedById: dto.requestedById ?? principal.userId,
        companyId: principal.companyId,
      });
    });
    return { data };
  }

  update(principal: Principal, id: number, dto: UpdateOutageDto) {
    rejectNulls(dto, ['title', 'outageType']);
    return this.change(principal, id, async (m, before) => {
      ensureEditable(before, ['ACTIVE']);
      const next = { ...before, ...withDates(dto, OUTAGE_DATES) } as OutageEvent;
      ensureOrdered(next, ORDER);
      await checkReferences(m, principal, dto, REFERENCES, before.companyId);
      return next;
    });
  }

  complete(principal: Principal, id: number, completionNotes?: string) {
    return this.move(principal, id, OUTAGE_MOVES, 'complete', { completionNotes });
  }
}
