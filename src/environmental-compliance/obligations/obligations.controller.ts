import { Param, Query } from '@nestjs/common';
import { CurrentPrincipal } from '../../access/access-rules';
import { Principal } from '../../access/principal';
import { IdParam } from '../../common/validation/id-param.pipe';
import { CountEnvelopeDto, EnvelopeOf, ListPageOf } from '../../records/record-envelopes';
import { Route } from '../../access/route.decorator';
import { RecordsController } from '../../records/records.controller';
import {
  CreateObligationDto,
  ObligationDto,
  ObligationPageQueryDto,
  ObligationQueryDto,
  UpcomingObligationsQueryDto,
  UpdateObligationDto,
} from './dto/obligation.dto';
import { ObligationsService } from './obligations.service';

/** /api/compliance-obligations: CRUD, count, overdue, upcoming, by permit and complete. */
export class ObligationsController extends RecordsController(ObligationsService, {
  path: 'api/compliance-obligations',
  tag: 'Environmental compliance: obligations',
  resource: 'compliance_obligations',
  one: 'compliance obligation',
  many: 'compliance obligations',
  view: ObligationDto,
  create: CreateObligationDto,
  update: UpdateObligationDto,
  query: ObligationQueryDto,
  conflicts: { remove: 'CONFLICT: the obligation has submissions' },
  summaries: { remove: 'Delete an obligation without submissions (409 CONFLICT while it has some)' },
}) {
  @Route('GET', 'count', {
    summary: 'Count the compliance obligations of the caller’s company',
    permissions: ['compliance_obligations:read'],
    response: CountEnvelopeDto,
  })
  count(@CurrentPrincipal() principal: Principal) {
    return this.records.count(principal);
  }

  @Route('GET', 'overdue', {
    summary: 'ACTIVE or OVERDUE obligations past their due date, most overdue first',
    permissions: ['compliance_obligations:read'],
    response: ListPageOf(ObligationDto),
    badRequest: true,
  })
  overdue(@CurrentPrincipal() principal: Principal, @Query() q: ObligationPageQueryDto) {
    return this.records.overdue(principal, q);
  }

  @Route('GET', 'upcoming', {
    summary: 'ACTIVE obligations due within daysAhead days (default 30), soonest first',
    permissions: ['compliance_obligations:read'],
    response: ListPageOf(ObligationDto),
    badRequest: true,
  })
  upcoming(@CurrentPrincipal() principal: Principal, @Query() q: UpcomingObligationsQueryDto) {
    return this.records.upcoming(principal, q);
  }

  @Route('GET', 'permit/:permitId', {
    summary: 'Obligations of a permit, newest first',
    permissions: ['compliance_obligations:read'],
    response: ListPageOf(ObligationDto),
    notFound: true,
    badRequest: true,
  })
  ofPermit(
    @CurrentPrincipal() principal: Principal,
    @Param('permitId', IdParam) permitId: number,
    @Query() q: ObligationPageQueryDto,
  ) {
    return this.records.ofPermit(principal, permitId, q);
  }

  @Route('POST', ':id/complete', {
    summary: 'Record a completion: ONE_TIME → COMPLETED, recurring → next due date moved forward',
    permissions: ['compliance_obligations:update'],
    response: EnvelopeOf(ObligationDto),
    notFound: true,
    conflict: 'INVALID_TRANSITION',
  })
  complete(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.records.complete(principal, id);
  }
}
