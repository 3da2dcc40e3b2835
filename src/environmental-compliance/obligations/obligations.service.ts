import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../../access/principal';
import { AppError } from '../../common/errors/app-error';
import { checkReferences } from '../../records/check-references';
import { withDates } from '../../common/validation/datetime';
import { findScoped, rejectNulls } from '../../records/find-scoped';
import { companyScope } from '../../access/company-rule';
import { recordKind } from '../../records/record-changes';
import { ComplianceRecordsService } from '../compliance-records.service';
import { User } from '../../identity';
import { EnvironmentalPermit } from '../permits/entities/environmental-permit.entity';
import {
  OBLIGATION_DATES,
  ObligationPageQueryDto,
  ObligationQueryDto,
  UpcomingObligationsQueryDto,
  UpdateObligationDto,
} from './dto/obligation.dto';
import { ComplianceObligation } from './entities/compliance-obligation.entity';
import { OBLIGATION_MOVES } from './obligation-moves';
import { OBLIGATION_TYPE } from './obligation.record-type';

export const OBLIGATION_KIND = recordKind(ComplianceObligation, {
  event: 'obligation',
  label: 'Obligation',
  nameField: 'title',
  deletedFields: ['id', 'title', 'permitId', 'status', 'companyId'],
});

const REFERENCES = [
  { entity: EnvironmentalPermit, field: 'permitId', names: 'a permit of this company' },
  { entity: User, field: 'responsibleUserId', names: 'a user of this company' },
];
const DAY_MS = 86_400_000;

/** Compliance obligations of the caller's company, their listings and completion. */
@Injectable()
export class ObligationsService extends ComplianceRecordsService<ComplianceObligation> {
  protected readonly kind = OBLIGATION_KIND;
  protected readonly type = OBLIGATION_TYPE;
  protected readonly rules = { dates: OBLIGATION_DATES, order: [], references: REFERENCES };

  list(principal: Principal, q: ObligationQueryDto) {
    const { status, obligationType } = q;
    return this.listRecords(principal, q, { status, obligationType });
  }

  count(principal: Principal) {
    return this.countRecords(principal);
  }

  /** ACTIVE or OVERDUE obligations due before now, most overdue first. */
  overdue(principal: Principal, q: ObligationPageQueryDto) {
    return this.db.run((m) => this.compliance.overdueObligations(m, companyScope(principal), new Date(), q));
  }

  /** ACTIVE obligations with now ≤ nextDueDate ≤ now + daysAhead, soonest first. */
  upcoming(principal: Principal, q: UpcomingObligationsQueryDto) {
    const now = new Date();
    const until = new Date(now.getTime() + q.daysAhead * DAY_MS);
    return this.db.run((m) => this.compliance.upcomingObligations(m, companyScope(principal), now, until, q));
  }

  /** Obligations of one permit (the caller's: 404 otherwise), newest first. */
  ofPermit(principal: Principal, permitId: number, q: ObligationPageQueryDto) {
    return this.db.run(async (m) => {
      await findScoped(m, EnvironmentalPermit, 'Permit', principal, permitId);
      return this.compliance.permitObligations(m, companyScope(principal), permitId, q);
    });
  }

  update(principal: Principal, id: number, dto: UpdateObligationDto) {
    rejectNulls(dto, ['permitId', 'title', 'obligationType', 'frequency', 'status']);
    return this.change(principal, id, async (m, before) => {
      await checkReferences(m, principal, dto, REFERENCES, before.companyId);
      return { ...before, ...withDates(dto, OBLIGATION_DATES) } as ComplianceObligation;
    });
  }

  complete(principal: Principal, id: number) {
    return this.move(principal, id, OBLIGATION_MOVES, 'complete');
  }

  /**
   * Completes the obligation inside the caller's transaction, as `complete` does (an approved
   * submission completes its obligation); one already COMPLETED or WAIVED is left as it is.
   */
  async completeWithin(m: EntityManager, principal: Principal, id: number) {
    const obligation = await findScoped(m, ComplianceObligation, 'Obligation', principal, id, true);
    if (!OBLIGATION_MOVES.complete.from.includes(obligation.status)) return;
    await this.changes.move(m, OBLIGATION_KIND, OBLIGATION_MOVES, 'complete', { principal, id });
  }

  /** An obligation whose submissions remain stays (409). */
  protected override async beforeRemove(m: EntityManager, obligation: ComplianceObligation) {
    const n = await this.compliance.submissionsOfObligation(m, obligation.id);
    if (n) throw AppError.conflict(`Obligation "${obligation.title}" still has ${n} submission(s)`);
  }
}
