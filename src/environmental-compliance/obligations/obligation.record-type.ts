import { builtInRecordType } from '../../records/engine/entity-record-type';
import {
  ComplianceObligation,
  FREQUENCIES,
  OBLIGATION_STATUSES,
  OBLIGATION_TYPES,
} from './entities/compliance-obligation.entity';

/** Obligations as the record engine reads them (filters, cursors, fields=, aggregates). */
export const OBLIGATION_TYPE = builtInRecordType(ComplianceObligation, 'obligations', {
  enums: { status: OBLIGATION_STATUSES, obligationType: OBLIGATION_TYPES, frequency: FREQUENCIES },
});
