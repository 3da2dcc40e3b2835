import { Module } from '@nestjs/common';
import { RecordsModule } from '../records/records.module';
import { ComplianceRepository } from './compliance.repository';
import { ComplianceDailyJobs } from './daily/compliance-daily-jobs';
import { ComplianceDailyScheduler } from './daily/compliance-daily.scheduler';
import { ObligationsController } from './obligations/obligations.controller';
import { ObligationsService } from './obligations/obligations.service';
import { PermitsController } from './permits/permits.controller';
import { PermitsService } from './permits/permits.service';
import { SubmissionsController } from './submissions/submissions.controller';
import { SubmissionsService } from './submissions/submissions.service';
import { EnvironmentalPermit } from './permits/entities/environmental-permit.entity';
import { ComplianceObligation } from './obligations/entities/compliance-obligation.entity';
import { ComplianceSubmission } from './submissions/entities/compliance-submission.entity';

export const ENVIRONMENTAL_COMPLIANCE_ENTITIES = [
  EnvironmentalPermit,
  ComplianceObligation,
  ComplianceSubmission,
];

/** Environmental compliance: permits, their obligations and submissions, and the daily job. */
@Module({
  imports: [RecordsModule],
  controllers: [PermitsController, ObligationsController, SubmissionsController],
  providers: [
    PermitsService,
    ObligationsService,
    SubmissionsService,
    ComplianceDailyJobs,
    ComplianceRepository,
    ComplianceDailyScheduler,
  ],
})
export class ComplianceModule {}
