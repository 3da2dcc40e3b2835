import { builtInRecordType } from '../../records/engine/entity-record-type';
import { EnvironmentalPermit, PERMIT_STATUSES, PERMIT_TYPES } from './entities/environmental-permit.entity';

/** Permits as the record engine reads them (filters, cursors, fields=, aggregates). */
export const PERMIT_TYPE = builtInRecordType(EnvironmentalPermit, 'permits', {
  enums: { status: PERMIT_STATUSES, permitType: PERMIT_TYPES },
});
