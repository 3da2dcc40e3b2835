import { Body, Param, Query } from '@nestjs/common';
import { CurrentPrincipal } from '../access/access-rules';
import { Principal } from '../access/principal';
import { IdParam } from '../common/validation/id-param.pipe';
import { CountEnvelopeDto, EnvelopeOf, ListPageOf } from '../records/record-envelopes';
import { Route } from '../access/route.decorator';
import { RecordsController } from '../records/records.controller';
import {
  ApprovalNotesDto,
  CompleteOutageDto,
  CompleteOutageResponseDto,
  CreateOutageDto,
  OutageDto,
  OutagePageQueryDto,
  OutageQueryDto,
  UpdateOutageDto,
} from './dto/outage.dto';
import { OUTAGE_MOVES } from './outage-moves';
import { OutagesService } from './outages.service';

const MOVE = { notFound: true, conflict: 'INVALID_TRANSITION', response: EnvelopeOf(OutageDto) } as const;

/** /api/outages: CRUD (soft delete), count, active, by unit, and the moves complete, cancel, approve, reject. */
export class OutagesController extends RecordsController(OutagesService, {
  path: 'api/outages',
  tag: 'Outages',
  resource: 'outage_events',
  one: 'outage',
  many: 'outages',
  view: OutageDto,
  create: CreateOutageDto,
  update: UpdateOutageDto,
  query: OutageQueryDto,
  conflicts: { update: 'INVALID_TRANSITION: the outage is not ACTIVE' },
  summaries: {
    create: 'Record an outage (ACTIVE, approval PENDING, numbered OUT-…)',
    update: 'Update the given fields of an ACTIVE outage (409 otherwise)',
    remove: 'Delete an outage (soft: it leaves every read and count)',
  },
}) {
  @Route('GET', 'count', {
    summary: 'Count the outages of the caller’s company',
    permissions: ['outage_events:read'],
    response: CountEnvelopeDto,
  })
  count(@CurrentPrincipal() principal: Principal) {
    return this.records.count(principal);
  }

  @Route('GET', 'active', {
    summary: 'ACTIVE outages, latest actual start first (not started last)',
    permissions: ['outage_events:read'],
    response: ListPageOf(OutageDto),
    badRequest: true,
  })
  active(@CurrentPrincipal() principal: Principal, @Query() q: OutagePageQueryDto) {
    return this.records.active(principal, q);
  }

  @Route('GET', 'unit/:unitId', {
    summary: 'Outages of a unit, newest created first',
    permissions: ['outage_events:read'],
    response: ListPageOf(OutageDto),
    notFound: true,
    badRequest: true,
  })
  ofUnit(
    @CurrentPrincipal() principal: Principal,
    @Param('unitId', IdParam) unitId: number,
    @Query() q: OutagePageQueryDto,
  ) {
    return this.records.ofUnit(principal, unitId, q);
  }

  @Route('POST', ':id/complete', {
    summary: 'Complete an ACTIVE outage (actualEnd set to now)',
    permissions: ['outage_events:update'],
    ...MOVE,
    response: CompleteOutageResponseDto,
  })
  async complete(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() body: CompleteOutageDto,
  ) {
    const { data } = await this.records.complete(principal, id, body.completionNotes);
    const { status, actualEnd, outageNumber } = data;
    return { data: { id: data.id, status, actualEnd }, message: `Outage ${outageNumber} completed` };
  }

  @Route('POST', ':id/cancel', {
    summary: 'Cancel an ACTIVE outage',
    permissions: ['outage_events:update'],
    ...MOVE,
  })
  cancel(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.records.move(principal, id, OUTAGE_MOVES, 'cancel');
  }

  @Route('POST', ':id/approve', {
    summary: 'Approve a PENDING planned outage (MANAGER and above)',
    permissions: ['outage_events:update'],
    minRole: 'MANAGER',
    ...MOVE,
  })
  approve(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() body: ApprovalNotesDto,
  ) {
    return this.records.move(principal, id, OUTAGE_MOVES, 'approve', body);
  }

  @Route('POST', ':id/reject', {
    summary: 'Reject a PENDING planned outage (MANAGER and above)',
    permissions: ['outage_events:update'],
    minRole: 'MANAGER',
    ...MOVE,
  })
  reject(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() body: ApprovalNotesDto,
  ) {
    return this.records.move(principal, id, OUTAGE_MOVES, 'reject', body);
  }
}
