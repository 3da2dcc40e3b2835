import { builtInRecordType } from '../records/engine/entity-record-type';
import { Unit, UNIT_STATUSES } from './entities/unit.entity';

/** Units as the record engine reads them (filters, cursors, fields=, aggregates). */
export const UNIT_TYPE = builtInRecordType(Unit, 'units', { enums: { status: UNIT_STATUSES } });
