import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../../access/access-rules';
import type { Principal } from '../../access/principal';
import { auditCompanyScope } from '../queries/audit-scope';
import { EntityTypeParam } from '../dto/audit-params';
import { ReportPeriodDto } from '../dto/audit-query.dto';
import {
  ComplianceSummaryEnvelopeDto,
  EntityAccessEnvelopeDto,
  RetentionReportEnvelopeDto,
  UserActivityEnvelopeDto,
} from '../dto/reports.dto';
import { ComplianceSummaryService } from './compliance-summary.service';
import { EntityAccessService } from './entity-access.service';
import { RetentionReportService } from './retention-report.service';
import { UserActivityService } from './user-activity.service';
import { IdParam } from '../../common/validation/id-param.pipe';

/** The four compliance reports (docs/audit.md). */
@ApiTags('Audit and compliance')
@ApiBadRequestResponse({ description: 'VALIDATION_ERROR: bad date or id' })
@Controller('compliance/audit/report')
export class AuditReportsController {
  constructor(
    private readonly summary: ComplianceSummaryService,
    private readonly activity: UserActivityService,
    private readonly access: EntityAccessService,
    private readonly retention: RetentionReportService,
  ) {}

  @Get('compliance-summary')
  @Authenticated({ permissions: ['audit_logs:read'], minRole: 'ADMIN' })
  @ApiOperation({ summary: 'Counts of a period (default: the last 30 days) (ADMIN)' })
  @ApiOkResponse({ type: ComplianceSummaryEnvelopeDto })
  complianceSummary(@Query() query: ReportPeriodDto) {
    return this.summary.report(query.startDate, query.endDate);
  }

  @Get('user-activity/:userId')
  @Authenticated({ permissions: ['audit_logs:read'], minRole: 'ADMIN' })
  @ApiOperation({ summary: 'One user’s activity and sessions over a period (ADMIN)' })
  @ApiParam({ name: 'userId', example: 3 })
  @ApiOkResponse({ type: UserActivityEnvelopeDto })
  @ApiNotFoundResponse({ description: 'No such user and no entries' })
  userActivity(@Param('userId', IdParam) userId: number, @Query() query: ReportPeriodDto) {
    return this.activity.report(userId, query.startDate, query.endDate);
  }

  @Get('entity-access/:entityType/:entityId')
  @Authenticated({ permissions: ['audit_logs:read'], minRole: 'MANAGER' })
  @ApiOperation({ summary: 'Who accessed and changed one entity (ADMIN or MANAGER)' })
  @ApiParam({ name: 'entityType', example: 'Unit' })
  @ApiParam({ name: 'entityId', example: 7 })
  @ApiOkResponse({ type: EntityAccessEnvelopeDto })
  entityAccess(
    @CurrentPrincipal() principal: Principal,
    @Param('entityType', new EntityTypeParam()) entityType: string,
    @Param('entityId', IdParam) entityId: number,
  ) {
    return this.access.report(entityType, entityId, auditCompanyScope(principal));
  }

  @Get('retention')
  @Authenticated({ permissions: ['audit_logs:read'], minRole: 'ADMIN' })
  @ApiOperation({ summary: 'Retention per entity type, storage, status and recommendations (ADMIN)' })
  @ApiOkResponse({ type: RetentionReportEnvelopeDto })
  retentionReport() {
    return this.retention.report();
  }
}
