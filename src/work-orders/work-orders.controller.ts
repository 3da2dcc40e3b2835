import { RecordsController } from '../records/records.controller';
import {
  CreateWorkOrderDto,
  UpdateWorkOrderDto,
  WorkOrderDto,
  WorkOrderQueryDto,
} from './dto/work-order.dto';
import { WorkOrdersService } from './work-orders.service';

/** /api/work-orders: list, get, create, update and delete, with the units permissions. */
export class WorkOrdersController extends RecordsController(WorkOrdersService, {
  path: 'api/work-orders',
  tag: 'Assets: work orders',
  resource: 'units',
  one: 'work order',
  many: 'work orders',
  view: WorkOrderDto,
  create: CreateWorkOrderDto,
  update: UpdateWorkOrderDto,
  query: WorkOrderQueryDto,
  summaries: { create: 'Create a work order for a unit' },
}) {}
