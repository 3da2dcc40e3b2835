import { Global, Module } from '@nestjs/common';
import { settingsProvider } from '../config/config.module';
import { AuditErrorRecorder } from './audit-error-recorder';
import { AuditWriter } from './audit-writer';
import { AuditSettings } from './audit.settings';
import { AuditExportController } from './export/audit-export.controller';
import { AuditExportService } from './export/audit-export.service';
import { AuditQueriesController } from './queries/audit-queries.controller';
import { AuditQueryService } from './queries/audit-query.service';
import { AuditReportsController } from './reports/audit-reports.controller';
import { ComplianceSummaryService } from './reports/compliance-summary.service';
import { EntityAccessService } from './reports/entity-access.service';
import { RetentionReportService } from './reports/retention-report.service';
import { UserActivityService } from './reports/user-activity.service';
import { AuditRetentionService } from './retention/audit-retention.service';
import { RetentionPoliciesService } from './retention/retention-policies.service';
import { RetentionController } from './retention/retention.controller';
import { RetentionScheduler } from './retention/retention.scheduler';

/** The audit writer every module uses, the compliance queries and reports, export and retention. */
@Global()
@Module({
  controllers: [AuditReportsController, AuditExportController, RetentionController, AuditQueriesController],
  providers: [
    settingsProvider(AuditSettings),
    AuditWriter,
    AuditErrorRecorder,
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
  exports: [AuditWriter],
})
export class AuditModule {}
