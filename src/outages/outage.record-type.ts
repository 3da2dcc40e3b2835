import { builtInRecordType } from '../records/engine/entity-record-type';
import {
  APPROVAL_STATUSES,
  OUTAGE_STATUSES,
  OUTAGE_TYPES,
  OutageEvent,
} from './entities/outage-event.entity';

/** Outages as the record engine reads them (filters, cursors, fields=, aggregates). */
export const OUTAGE_TYPE = builtInRecordType(OutageEvent, 'outages', {
  enums: { status: OUTAGE_STATUSES, outageType: OUTAGE_TYPES, approvalStatus: APPROVAL_STATUSES },
});
