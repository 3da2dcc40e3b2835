import { Query } from '@nestjs/common';
import { CurrentPrincipal } from '../../access/access-rules';
import { Principal } from '../../access/principal';
import { CountEnvelopeDto, ListPageOf } from '../../records/record-envelopes';
import { Route } from '../../access/route.decorator';
import { RecordsController } from '../../records/records.controller';
import {
  CreatePermitDto,
  ExpiringPermitsQueryDto,
  PermitDto,
  PermitQueryDto,
  PermitsByStatusQueryDto,
  UpdatePermitDto,
} from './dto/permit.dto';
import { PermitsService } from './permits.service';

/** /api/permits: CRUD, count, expiring and by-status. */
export class PermitsController extends RecordsController(PermitsService, {
  path: 'api/permits',
  tag: 'Environmental compliance: permits',
  resource: 'environmental_permits',
  one: 'permit',
  many: 'permits',
  view: PermitDto,
  create: CreatePermitDto,
  update: UpdatePermitDto,
  query: PermitQueryDto,
  conflicts: {
    create: 'CONFLICT: permitNumber taken',
    update: 'CONFLICT: permitNumber taken',
    remove: 'CONFLICT: the permit has obligations',
  },
  summaries: {
    create: 'Create a permit (permitNumber unique: 409 CONFLICT otherwise)',
    remove: 'Delete a permit without obligations (409 CONFLICT while it has some)',
  },
}) {
  @Route('GET', 'count', {
    summary: 'Count the permits of the caller’s company',
    permissions: ['environmental_permits:read'],
    response: CountEnvelopeDto,
  })
  count(@CurrentPrincipal() principal: Principal) {
    return this.records.count(principal);
  }

  @Route('GET', 'expiring', {
    summary: 'ACTIVE permits expiring within daysAhead days (default 90), soonest first',
    permissions: ['environmental_permits:read'],
    response: ListPageOf(PermitDto),
    badRequest: true,
  })
  expiring(@CurrentPrincipal() principal: Principal, @Query() q: ExpiringPermitsQueryDto) {
    return this.records.expiring(principal, q);
  }

  @Route('GET', 'by-status', {
    summary: 'Permits with the given status, newest first',
    permissions: ['environmental_permits:read'],
    response: ListPageOf(PermitDto),
    badRequest: true,
  })
  byStatus(@CurrentPrincipal() principal: Principal, @Query() q: PermitsByStatusQueryDto) {
    return this.records.byStatus(principal, q);
  }
}
