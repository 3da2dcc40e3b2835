import { Controller, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { Route } from '../../access/route.decorator';
import { CurrentPrincipal } from '../../access/access-rules';
import type { Principal } from '../../access/principal';
import { companyScope } from '../../access/company-rule';
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

  @Route('GET', 'compliance-summary', {
    summary: 'Counts of a period (default: the last 30 days) (ADMIN)',
    permissions: ['audit_logs:read'],
    minRole: 'ADMIN',
    response: ComplianceSummaryEnvelopeDto,
  })
  complianceSummary(@Query() query: ReportPeriodDto) {
    return this.summary.report(query.startDate, query.endDate);
  }

  @Route('GET', 'user-activity/:userId', {
    summary: 'One user’s activity and sessions over a period (ADMIN)',
    permissions: ['audit_logs:read'],
    minRole: 'ADMIN',
    response: UserActivityEnvelopeDto,
    notFound: 'No such user and no entries',
  })
  @ApiParam({ name: 'userId', example: 3 })
  userActivity(@Param('userId', IdParam) userId: number, @Query() query: ReportPeriodDto) {
    return this.activity.report(userId, query.startDate, query.endDate);
  }

  @Route('GET', 'entity-access/:entityType/:entityId', {
    summary: 'Who accessed and changed one entity (ADMIN or MANAGER)',
    permissions: ['audit_logs:read'],
    minRole: 'MANAGER',
    response: EntityAccessEnvelopeDto,
  })
  @ApiParam({ name: 'entityType', example: 'Unit' })
  @ApiParam({ name: 'entityId', example: 7 })
  entityAccess(
    @CurrentPrincipal() principal: Principal,
    @Param('entityType', new EntityTypeParam()) entityType: string,
    @Param('entityId', IdParam) entityId: number,
  ) {
    return this.access.report(entityType, entityId, companyScope(principal, 'records'));
  }

  @Route('GET', 'retention', {
    summary: 'Retention per entity type, storage, status and recommendations (ADMIN)',
    permissions: ['audit_logs:read'],
    minRole: 'ADMIN',
    response: RetentionReportEnvelopeDto,
  })
  retentionReport() {
    return this.retention.report();
  }
}
