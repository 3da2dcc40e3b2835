import { Body, Param } from '@nestjs/common';
import { CurrentPrincipal } from '../../access/access-rules';
import { Principal } from '../../access/principal';
import { IdParam } from '../../common/validation/id-param.pipe';
import { CountEnvelopeDto, EnvelopeOf } from '../../records/record-envelopes';
import { Route } from '../../access/route.decorator';
import { RecordsController } from '../../records/records.controller';
import {
  CreateSubmissionDto,
  RejectSubmissionDto,
  ReviewNotesDto,
  SubmissionDto,
  SubmissionQueryDto,
  UpdateSubmissionDto,
} from './dto/submission.dto';
import { SubmissionsService } from './submissions.service';

const MOVE = {
  response: EnvelopeOf(SubmissionDto),
  notFound: true,
  conflict: 'INVALID_TRANSITION',
} as const;
const REVIEW = {
  ...MOVE,
  permissions: ['compliance_submissions:update' as const],
  minRole: 'MANAGER' as const,
};

/** /api/compliance-submissions: CRUD, count and the review workflow. */
export class SubmissionsController extends RecordsController(SubmissionsService, {
  path: 'api/compliance-submissions',
  tag: 'Environmental compliance: submissions',
  resource: 'compliance_submissions',
  one: 'compliance submission',
  many: 'compliance submissions',
  view: SubmissionDto,
  create: CreateSubmissionDto,
  update: UpdateSubmissionDto,
  query: SubmissionQueryDto,
  conflicts: { update: 'INVALID_TRANSITION: the submission is not DRAFT or REVISION_REQUIRED' },
  summaries: {
    create: 'Create a submission (DRAFT)',
    update: 'Update the given fields of a DRAFT or REVISION_REQUIRED submission (409 otherwise)',
  },
}) {
  @Route('GET', 'count', {
    summary: 'Count the compliance submissions of the caller’s company',
    permissions: ['compliance_submissions:read'],
    response: CountEnvelopeDto,
  })
  count(@CurrentPrincipal() principal: Principal) {
    return this.records.count(principal);
  }

  @Route('POST', ':id/submit', {
    summary: 'Submit a DRAFT or REVISION_REQUIRED submission',
    permissions: ['compliance_submissions:update'],
    ...MOVE,
  })
  submit(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.records.moveTo(principal, id, 'submit');
  }

  @Route('POST', ':id/review', { summary: 'Take a SUBMITTED submission under review', ...REVIEW })
  review(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() body: ReviewNotesDto,
  ) {
    return this.records.moveTo(principal, id, 'review', body);
  }

  @Route('POST', ':id/approve', {
    summary: 'Approve a submission under review (completes its obligation)',
    ...REVIEW,
  })
  approve(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.records.moveTo(principal, id, 'approve');
  }

  @Route('POST', ':id/reject', {
    summary: 'Reject a submission under review',
    ...REVIEW,
    badRequest: true,
  })
  reject(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() body: RejectSubmissionDto,
  ) {
    return this.records.moveTo(principal, id, 'reject', body);
  }

  @Route('POST', ':id/request-revision', {
    summary: 'Send a submission under review back for revision',
    ...REVIEW,
  })
  requestRevision(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() body: ReviewNotesDto,
  ) {
    return this.records.moveTo(principal, id, 'request-revision', body);
  }
}
