import { Controller, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { Route } from '../../access/route.decorator';
import { CurrentPrincipal } from '../../access/access-rules';
import type { Principal } from '../../access/principal';
import { AuditPageEnvelopeDto, AuditTrailEnvelopeDto } from '../dto/audit-entry.dto';
import { ActionParam, EntityTypeParam, IpParam } from '../dto/audit-params';
import {
  AuditRangeQueryDto,
  ErrorsQueryDto,
  SearchQueryDto,
  TimeRangeQueryDto,
} from '../dto/audit-query.dto';
import { AUDIT_ACTIONS, AuditAction } from '../../audit-trail/audit-log.entity';
import { parseRange } from './audit-dates';
import { AuditQueryService } from './audit-query.service';
import { companyScope } from '../../access/company-rule';
import { ZeroBasedPageQueryDto } from '../../common/pagination/zero-based-page-query';
import { IdParam } from '../../common/validation/id-param.pipe';

const MANAGER_UP = { permissions: ['audit_logs:read' as const], minRole: 'MANAGER' as const };
const ADMIN_ONLY = { permissions: ['audit_logs:read' as const], minRole: 'ADMIN' as const };

/** Audit and compliance queries (paged, 0-based, newest first; docs/audit.md). */
@ApiTags('Audit and compliance')
@ApiBadRequestResponse({ description: 'VALIDATION_ERROR: bad page, size, date, action, id or address' })
@Controller('compliance/audit')
export class AuditQueriesController {
  constructor(private readonly audit: AuditQueryService) {}

  @Route('GET', 'entity/:entityType/:entityId', {
    summary: 'Audit trail of one entity (ADMIN or MANAGER)',
    ...MANAGER_UP,
    response: AuditTrailEnvelopeDto,
  })
  @ApiParam({ name: 'entityType', example: 'Unit' })
  @ApiParam({ name: 'entityId', example: 7 })
  entity(
    @CurrentPrincipal() principal: Principal,
    @Param('entityType', new EntityTypeParam()) entityType: string,
    @Param('entityId', IdParam) entityId: number,
    @Query() query: ZeroBasedPageQueryDto,
  ) {
    return this.audit.trail(entityType, entityId, companyScope(principal, 'records'), query.page, query.size);
  }

  @Route('GET', 'user/:userId', {
    summary: 'Entries made by one user (ADMIN or MANAGER)',
    ...MANAGER_UP,
    response: AuditPageEnvelopeDto,
  })
  @ApiParam({ name: 'userId', example: 3 })
  user(
    @CurrentPrincipal() principal: Principal,
    @Param('userId', IdParam) userId: number,
    @Query() query: AuditRangeQueryDto,
  ) {
    return this.audit.list(
      {
        companyId: companyScope(principal, 'records'),
        userId,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }

  @Route('GET', 'entity-type/:entityType', {
    summary: 'Entries about one entity type (ADMIN or MANAGER)',
    ...MANAGER_UP,
    response: AuditPageEnvelopeDto,
  })
  @ApiParam({ name: 'entityType', example: 'Unit' })
  entityType(
    @CurrentPrincipal() principal: Principal,
    @Param('entityType', new EntityTypeParam()) entityType: string,
    @Query() query: AuditRangeQueryDto,
  ) {
    return this.audit.list(
      {
        companyId: companyScope(principal, 'records'),
        entityType,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }

  @Route('GET', 'action/:action', {
    summary: 'Entries with one action (ADMIN or MANAGER)',
    ...MANAGER_UP,
    response: AuditPageEnvelopeDto,
  })
  @ApiParam({ name: 'action', enum: AUDIT_ACTIONS })
  action(
    @CurrentPrincipal() principal: Principal,
    @Param('action', new ActionParam()) action: AuditAction,
    @Query() query: AuditRangeQueryDto,
  ) {
    return this.audit.list(
      {
        companyId: companyScope(principal, 'records'),
        action,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }

  @Route('GET', 'time-range', {
    summary: 'Entries between two dates, both required (ADMIN or MANAGER)',
    ...MANAGER_UP,
    response: AuditPageEnvelopeDto,
  })
  timeRange(@CurrentPrincipal() principal: Principal, @Query() query: TimeRangeQueryDto) {
    return this.audit.list(
      { companyId: companyScope(principal, 'records'), range: parseRange(query.startDate, query.endDate) },
      query.page,
      query.size,
    );
  }

  @Route('GET', 'security', {
    summary: 'Security events: logins, logouts, password, 2FA, role and permission changes (ADMIN)',
    ...ADMIN_ONLY,
    response: AuditPageEnvelopeDto,
  })
  security(@CurrentPrincipal() principal: Principal, @Query() query: AuditRangeQueryDto) {
    return this.audit.list(
      {
        companyId: companyScope(principal, 'records'),
        security: true,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }

  @Route('GET', 'errors', {
    summary: 'Recorded 4xx/5xx answers (ADMIN or MANAGER)',
    ...MANAGER_UP,
    response: AuditPageEnvelopeDto,
  })
  errors(@CurrentPrincipal() principal: Principal, @Query() query: ErrorsQueryDto) {
    return this.audit.list(
      {
        companyId: companyScope(principal, 'records'),
        errors: true,
        errorStatus: query.status,
        errorCode: query.code,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }

  @Route('GET', 'search', {
    summary: 'Entries whose message contains the query text (ADMIN or MANAGER)',
    ...MANAGER_UP,
    response: AuditPageEnvelopeDto,
  })
  search(@CurrentPrincipal() principal: Principal, @Query() query: SearchQueryDto) {
    return this.audit.list(
      {
        companyId: companyScope(principal, 'records'),
        text: query.query,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }

  @Route('GET', 'ip/:ipAddress', {
    summary: 'Entries from one source address (ADMIN)',
    ...ADMIN_ONLY,
    response: AuditPageEnvelopeDto,
  })
  @ApiParam({ name: 'ipAddress', example: '10.0.0.7' })
  ip(
    @CurrentPrincipal() principal: Principal,
    @Param('ipAddress', new IpParam()) ipAddress: string,
    @Query() query: AuditRangeQueryDto,
  ) {
    return this.audit.list(
      {
        companyId: companyScope(principal, 'records'),
        ipAddress,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }
}
