import { builtInRecordType } from '../../records/engine/entity-record-type';
import { ComplianceSubmission, SUBMISSION_STATUSES } from './entities/compliance-submission.entity';

/** Submissions as the record engine reads them (filters, cursors, fields=, aggregates). */
export const SUBMISSION_TYPE = builtInRecordType(ComplianceSubmission, 'submissions', {
  enums: { status: SUBMISSION_STATUSES },
});
