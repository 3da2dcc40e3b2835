import { Module } from '@nestjs/common';
import { AuditRetentionPolicy } from './entities/retention-policy.entity';
import { AuditExportController } from './export/audit-export.controller';
import { AuditExportService } from './export/audit-export.service';
import { AuditQueriesController } from './queries/audit-queries.controller';
import { AuditEntriesRepository } from './queries/audit-entries.repository';
import { AuditQueryService } from './queries/audit-query.service';
import { AuditReportsRepository } from './reports/audit-reports.repository';
import { AuditReportsController } from './reports/audit-reports.controller';
import { ComplianceSummaryService } from './reports/compliance-summary.service';
import { EntityAccessService } from './reports/entity-access.service';
import { RetentionReportService } from './reports/retention-report.service';
import { UserActivityService } from './reports/user-activity.service';
import { AuditRetentionRepository } from './retention/audit-retention.repository';
import { AuditRetentionService } from './retention/audit-retention.service';
import { RetentionPoliciesRepository } from './retention/retention-policies.repository';
import { RetentionPoliciesService } from './retention/retention-policies.service';
import { RetentionController } from './retention/retention.controller';
import { RetentionScheduler } from './retention/retention.scheduler';

export const AUDIT_ENTITIES = [AuditRetentionPolicy];

/** The audit trail's queries, compliance reports, export and retention. */
@Module({
  controllers: [AuditReportsController, AuditExportController, RetentionController, AuditQueriesController],
  providers: [
    AuditEntriesRepository,
    AuditReportsRepository,
    RetentionPoliciesRepository,
    AuditRetentionRepository,
    AuditQueryService,
    ComplianceSummaryService,
    UserActivityService,
    EntityAccessService,
    RetentionReportService,
    AuditExportService,
    AuditRetentionService,
    RetentionPoliciesService,
    RetentionScheduler,
  ],
})
export class AuditModule {}
