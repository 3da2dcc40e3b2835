import { builtInRecordType } from '../records/engine/entity-record-type';
import { PRIORITIES, WORK_ORDER_STATUSES, WorkOrder } from './entities/work-order.entity';

/** Work orders as the record engine reads them (filters, cursors, fields=, aggregates). */
export const WORK_ORDER_TYPE = builtInRecordType(WorkOrder, 'work-orders', {
  enums: { status: WORK_ORDER_STATUSES, priority: PRIORITIES },
});
