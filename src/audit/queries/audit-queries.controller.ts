import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../../access/access-rules';
import type { Principal } from '../../access/principal';
import { AuditPageEnvelopeDto, AuditTrailEnvelopeDto } from '../dto/audit-entry.dto';
import { ActionParam, EntityTypeParam, IpParam } from '../dto/audit-params';
import {
  AuditPageDto,
  AuditRangeQueryDto,
  ErrorsQueryDto,
  SearchQueryDto,
  TimeRangeQueryDto,
} from '../dto/audit-query.dto';
import { AUDIT_ACTIONS, AuditAction } from '../../audit-trail/audit-log.entity';
import { parseRange } from './audit-dates';
import { AuditQueryService } from './audit-query.service';
import { auditCompanyScope } from './audit-scope';
import { IdParam } from '../../common/validation/id-param.pipe';

const MANAGER_UP = { permissions: ['audit_logs:read' as const], minRole: 'MANAGER' as const };
const ADMIN_ONLY = { permissions: ['audit_logs:read' as const], minRole: 'ADMIN' as const };

/** Audit and compliance queries (paged, 0-based, newest first; docs/audit.md). */
@ApiTags('Audit and compliance')
@ApiBadRequestResponse({ description: 'VALIDATION_ERROR: bad page, size, date, action, id or address' })
@Controller('compliance/audit')
export class AuditQueriesController {
  constructor(private readonly audit: AuditQueryService) {}

  @Get('entity/:entityType/:entityId')
  @Authenticated(MANAGER_UP)
  @ApiOperation({ summary: 'Audit trail of one entity (ADMIN or MANAGER)' })
  @ApiParam({ name: 'entityType', example: 'Unit' })
  @ApiParam({ name: 'entityId', example: 7 })
  @ApiOkResponse({ type: AuditTrailEnvelopeDto })
  entity(
    @CurrentPrincipal() principal: Principal,
    @Param('entityType', new EntityTypeParam()) entityType: string,
    @Param('entityId', IdParam) entityId: number,
    @Query() query: AuditPageDto,
  ) {
    return this.audit.trail(entityType, entityId, auditCompanyScope(principal), query.page, query.size);
  }

  @Get('user/:userId')
  @Authenticated(MANAGER_UP)
  @ApiOperation({ summary: 'Entries made by one user (ADMIN or MANAGER)' })
  @ApiParam({ name: 'userId', example: 3 })
  @ApiOkResponse({ type: AuditPageEnvelopeDto })
  user(
    @CurrentPrincipal() principal: Principal,
    @Param('userId', IdParam) userId: number,
    @Query() query: AuditRangeQueryDto,
  ) {
    return this.audit.list(
      {
        companyId: auditCompanyScope(principal),
        userId,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }

  @Get('entity-type/:entityType')
  @Authenticated(MANAGER_UP)
  @ApiOperation({ summary: 'Entries about one entity type (ADMIN or MANAGER)' })
  @ApiParam({ name: 'entityType', example: 'Unit' })
  @ApiOkResponse({ type: AuditPageEnvelopeDto })
  entityType(
    @CurrentPrincipal() principal: Principal,
    @Param('entityType', new EntityTypeParam()) entityType: string,
    @Query() query: AuditRangeQueryDto,
  ) {
    return this.audit.list(
      {
        companyId: auditCompanyScope(principal),
        entityType,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }

  @Get('action/:action')
  @Authenticated(MANAGER_UP)
  @ApiOperation({ summary: 'Entries with one action (ADMIN or MANAGER)' })
  @ApiParam({ name: 'action', enum: AUDIT_ACTIONS })
  @ApiOkResponse({ type: AuditPageEnvelopeDto })
  action(
    @CurrentPrincipal() principal: Principal,
    @Param('action', new ActionParam()) action: AuditAction,
    @Query() query: AuditRangeQueryDto,
  ) {
    return this.audit.list(
      {
        companyId: auditCompanyScope(principal),
        action,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }

  @Get('time-range')
  @Authenticated(MANAGER_UP)
  @ApiOperation({ summary: 'Entries between two dates, both required (ADMIN or MANAGER)' })
  @ApiOkResponse({ type: AuditPageEnvelopeDto })
  timeRange(@CurrentPrincipal() principal: Principal, @Query() query: TimeRangeQueryDto) {
    return this.audit.list(
      { companyId: auditCompanyScope(principal), range: parseRange(query.startDate, query.endDate) },
      query.page,
      query.size,
    );
  }

  @Get('security')
  @Authenticated(ADMIN_ONLY)
  @ApiOperation({
    summary: 'Security events: logins, logouts, password, 2FA, role and permission changes (ADMIN)',
  })
  @ApiOkResponse({ type: AuditPageEnvelopeDto })
  security(@CurrentPrincipal() principal: Principal, @Query() query: AuditRangeQueryDto) {
    return this.audit.list(
      {
        companyId: auditCompanyScope(principal),
        security: true,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }

  @Get('errors')
  @Authenticated(MANAGER_UP)
  @ApiOperation({ summary: 'Recorded 4xx/5xx answers (ADMIN or MANAGER)' })
  @ApiOkResponse({ type: AuditPageEnvelopeDto })
  errors(@CurrentPrincipal() principal: Principal, @Query() query: ErrorsQueryDto) {
    return this.audit.list(
      {
        companyId: auditCompanyScope(principal),
        errors: true,
        errorStatus: query.status,
        errorCode: query.code,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }

  @Get('search')
  @Authenticated(MANAGER_UP)
  @ApiOperation({ summary: 'Entries whose message contains the query text (ADMIN or MANAGER)' })
  @ApiOkResponse({ type: AuditPageEnvelopeDto })
  search(@CurrentPrincipal() principal: Principal, @Query() query: SearchQueryDto) {
    return this.audit.list(
      {
        companyId: auditCompanyScope(principal),
        text: query.query,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }

  @Get('ip/:ipAddress')
  @Authenticated(ADMIN_ONLY)
  @ApiOperation({ summary: 'Entries from one source address (ADMIN)' })
  @ApiParam({ name: 'ipAddress', example: '10.0.0.7' })
  @ApiOkResponse({ type: AuditPageEnvelopeDto })
  ip(
    @CurrentPrincipal() principal: Principal,
    @Param('ipAddress', new IpParam()) ipAddress: string,
    @Query() query: AuditRangeQueryDto,
  ) {
    return this.audit.list(
      {
        companyId: auditCompanyScope(principal),
        ipAddress,
        range: parseRange(query.startDate, query.endDate),
      },
      query.page,
      query.size,
    );
  }
}
