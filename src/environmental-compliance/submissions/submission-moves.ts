import { MoveContext, MoveTable } from '../../records/transitions';
import { ComplianceSubmission } from './entities/compliance-submission.entity';

type Input = MoveContext<{ reviewNotes?: string; rejectionReason?: string }>;

const reviewed = (_s: ComplianceSubmission, ctx: Input): Partial<ComplianceSubmission> => ({
  reviewedById: ctx.principal.userId,
  reviewDate: ctx.now,
  ...(ctx.input?.reviewNotes !== undefined ? { reviewNotes: ctx.input.reviewNotes } : {}),
});

/**
 * How a submission moves: DRAFT | REVISION_REQUIRED → SUBMITTED (any editor), SUBMITTED →
 * UNDER_REVIEW, then APPROVED, REJECTED or REVISION_REQUIRED (MANAGER and above).
 */
export const SUBMISSION_MOVES: MoveTable<ComplianceSubmission> = {
  submit: {
    from: ['DRAFT', 'REVISION_REQUIRED'],
    to: 'SUBMITTED',
    stamps: (_s, ctx) => ({ submittedDate: ctx.now, submittedById: ctx.principal.userId }),
    event: 'submission.submitted',
  },
  review: {
    from: ['SUBMITTED'],
    to: 'UNDER_REVIEW',
    minRole: 'MANAGER',
    stamps: reviewed,
    event: 'submission.reviewed',
  },
  approve: {
    from: ['UNDER_REVIEW'],
    to: 'APPROVED',
    minRole: 'MANAGER',
    stamps: (_s, ctx) => ({ approvalDate: ctx.now }),
    event: 'submission.approved',
  },
  reject: {
    from: ['UNDER_REVIEW'],
    to: 'REJECTED',
    minRole: 'MANAGER',
    stamps: (s, ctx: Input) => ({ ...reviewed(s, ctx), rejectionReason: ctx.input?.rejectionReason ?? null }),
    event: 'submission.rejected',
  },
  'request-revision': {
    from: ['UNDER_REVIEW'],
    to: 'REVISION_REQUIRED',
    minRole: 'MANAGER',
    stamps: reviewed,
    event: 'submission.revision_requested',
  },
};
