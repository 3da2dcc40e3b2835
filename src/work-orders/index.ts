// The public face of work-orders: other features import from this file only.
export { WorkOrder } from './entities/work-order.entity';
