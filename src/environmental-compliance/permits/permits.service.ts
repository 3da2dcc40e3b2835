import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { Principal } from '../../access/principal';
import { withDates } from '../../common/validation/datetime';
import { rejectNulls } from '../../records/find-scoped';
import { companyScope } from '../../access/company-rule';
import { endAfterStart, ensureOrdered } from '../../records/ordered-fields';
import { recordKind } from '../../records/record-changes';
import { ComplianceRecordsService } from '../compliance-records.service';
import { Unit } from '../../units';
import { checkReferences } from '../../records/check-references';
import {
  ExpiringPermitsQueryDto,
  PERMIT_DATES,
  PermitQueryDto,
  PermitsByStatusQueryDto,
  UpdatePermitDto,
} from './dto/permit.dto';
import { EnvironmentalPermit } from './entities/environmental-permit.entity';
import { PERMIT_TYPE } from './permit.record-type';

export const PERMIT_KIND = recordKind(EnvironmentalPermit, {
  event: 'permit',
  label: 'Permit',
  nameField: 'permitNumber',
  deletedFields: ['id', 'permitNumber', 'title', 'status', 'unitId', 'companyId'],
  statusChanged: true,
});

const REFERENCES = [{ entity: Unit, field: 'unitId', names: 'a unit of this company' }];
const ORDER = [endAfterStart('issueDate', 'expiryDate')];
const DAY_MS = 86_400_000;

/** Environmental permits of the caller's company; a permit with obligations is not deleted (409). */
@Injectable()
export class PermitsService extends ComplianceRecordsService<EnvironmentalPermit> {
  protected readonly kind = PERMIT_KIND;
  protected readonly type = PERMIT_TYPE;
  protected readonly rules = { dates: PERMIT_DATES, order: ORDER, references: REFERENCES };

  list(principal: Principal, q: PermitQueryDto) {
    const { status, permitType } = q;
    return this.listRecords(principal, q, { status, permitType });
  }

  count(principal: Principal) {
    return this.countRecords(principal);
  }

  /** ACTIVE permits with now ≤ expiryDate ≤ now + daysAhead, soonest first. */
  expiring(principal: Principal, q: ExpiringPermitsQueryDto) {
    const now = new Date();
    const until = new Date(now.getTime() + q.daysAhead * DAY_MS);
    return this.db.run((m) => this.compliance.expiringPermits(m, companyScope(principal), now, until, q));
  }

  byStatus(principal: Principal, q: PermitsByStatusQueryDto) {
    return this.listRecords(principal, { ...q, sort: 'id', order: 'DESC' }, { status: q.status });
  }

  update(principal: Principal, id: number, dto: UpdatePermitDto) {
    rejectNulls(dto, ['permitNumber', 'title', 'permitType', 'status']);
    return this.change(principal, id, async (m, before) => {
      const next = { ...before, ...withDates(dto, PERMIT_DATES) } as EnvironmentalPermit;
      ensureOrdered(next, ORDER);
      await checkReferences(m, principal, dto, REFERENCES, before.companyId);
      if (next.expiryDate?.getTime() !== before.expiryDate?.getTime()) {
        // A new expiry date starts the 90/30/7-day notices afresh.
        await this.compliance.setNoticeDays(m, id, null);
      }
      return next;
    });
  }

  /** A permit whose obligations remain stays (409). */
  protected override async beforeRemove(m: EntityManager, permit: EnvironmentalPermit) {
    const n = await this.compliance.obligationsOfPermit(m, permit.id);
    if (n) throw AppError.conflict(`Permit "${permit.permitNumber}" still has ${n} obligation(s)`);
  }
}
