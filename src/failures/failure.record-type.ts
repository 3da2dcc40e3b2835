import { builtInRecordType } from '../records/engine/entity-record-type';
import { Failure, FAILURE_STATUSES, SEVERITIES } from './entities/failure.entity';

/** Failures as the record engine reads them (filters, cursors, fields=, aggregates). */
export const FAILURE_TYPE = builtInRecordType(Failure, 'failures', {
  enums: { status: FAILURE_STATUSES, severity: SEVERITIES },
});
