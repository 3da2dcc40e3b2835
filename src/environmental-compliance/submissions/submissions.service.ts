import { Injectable } from '@nestjs/common';
import { Principal } from '../../access/principal';
import { RecordChanges } from '../../records/record-changes';
import { checkReferences } from '../../records/check-references';
import { withDates } from '../../common/validation/datetime';
import { findScoped, rejectNulls } from '../../records/find-scoped';
import { endAfterStart, ensureOrdered } from '../../records/ordered-fields';
import { recordKind } from '../../records/record-changes';
import { ComplianceRecordsService } from '../compliance-records.service';
import { ensureEditable } from '../../records/transitions';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { RecordEngine } from '../../records/engine/record-engine';
import { SUBMISSION_TYPE } from './submission.record-type';
import { ComplianceRepository } from '../compliance.repository';
import { ComplianceObligation } from '../obligations/entities/compliance-obligation.entity';
import { ObligationsService } from '../obligations/obligations.service';
import { SUBMISSION_DATES, SubmissionQueryDto, UpdateSubmissionDto } from './dto/submission.dto';
import { ComplianceSubmission } from './entities/compliance-submission.entity';
import { SUBMISSION_MOVES } from './submission-moves';

export const SUBMISSION_KIND = recordKind(ComplianceSubmission, {
  event: 'submission',
  label: 'Submission',
  nameField: 'title',
  deletedFields: ['id', 'title', 'obligationId', 'status', 'companyId'],
});

const REFERENCES = [
  { entity: ComplianceObligation, field: 'obligationId', names: 'an obligation of this company' },
];
const ORDER = [endAfterStart('periodStart', 'periodEnd')];
/** States in which the body of a submission may still change. */
const EDITABLE = ['DRAFT', 'REVISION_REQUIRED'];

export type SubmissionMove = 'submit' | 'review' | 'approve' | 'reject' | 'request-revision';

/** Compliance submissions of the caller's company and their review workflow. */
@Injectable()
export class SubmissionsService extends ComplianceRecordsService<ComplianceSubmission> {
  protected readonly kind = SUBMISSION_KIND;
  protected readonly type = SUBMISSION_TYPE;
  protected readonly rules = { dates: SUBMISSION_DATES, order: ORDER, references: REFERENCES };

  constructor(
    db: TenantDatabase,
    changes: RecordChanges,
    engine: RecordEngine,
    compliance: ComplianceRepository,
    private readonly obligations: ObligationsService,
  ) {
    super(db, changes, engine, compliance);
  }

  list(principal: Principal, q: SubmissionQueryDto) {
    const { status, obligationId } = q;
    return this.listRecords(principal, q, { status, obligationId });
  }

  count(principal: Principal) {
    return this.countRecords(principal);
  }

  update(principal: Principal, id: number, dto: UpdateSubmissionDto) {
    rejectNulls(dto, ['obligationId', 'title']);
    return this.change(principal, id, async (m, before) => {
      ensureEditable(before, EDITABLE);
      const next = { ...before, ...withDates(dto, SUBMISSION_DATES) } as ComplianceSubmission;
      ensureOrdered(next, ORDER);
      await checkReferences(m, principal, dto, REFERENCES, before.companyId);
      return next;
    });
  }

  /**
   * A named move in one transaction with its audit entry, its own event and
   * `submission.status_changed` (previousStatus and status in the attributes); approval also
   * completes the obligation.
   */
  async moveTo(principal: Principal, id: number, name: SubmissionMove, input?: object) {
    const data = await this.db.transaction(async (m) => {
      const before = await findScoped(m, ComplianceSubmission, this.kind.label, principal, id, true);
      const after = await this.changes.move(m, this.kind, SUBMISSION_MOVES, name, { principal, id, input });
      const attributes = { ...after, previousStatus: before.status };
      await this.changes.publish(m, this.kind, 'submission.status_changed', attributes, {
        status: before.status,
      });
      if (name === 'approve') await this.obligations.completeWithin(m, principal, after.obligationId);
      return after;
    });
    return { data };
  }
}
