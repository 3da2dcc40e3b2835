import { Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import { unitRecordKind, UnitRecordsService } from '../units';
import { CreateWorkOrderDto, UpdateWorkOrderDto } from './dto/work-order.dto';
import { WorkOrder } from './entities/work-order.entity';
import { WORK_ORDER_TYPE } from './work-order.record-type';

const KIND = unitRecordKind(WorkOrder, {
  required: ['title', 'unitId', 'status', 'priority'],
  dateField: 'dueDate',
  closedAt: { field: 'completedAt', status: 'COMPLETED' },
  statusChanged: true,
});

/** Work orders of units: company-scoped like units, audited, publishing work_order.* events. */
@Injectable()
export class WorkOrdersService extends UnitRecordsService<WorkOrder> {
  protected readonly kind = KIND;
  protected readonly type = WORK_ORDER_TYPE;

  create(principal: Principal, dto: CreateWorkOrderDto) {
    return this.createFor(principal, dto);
  }

  update(principal: Principal, id: number, dto: UpdateWorkOrderDto) {
    return this.updateFor(principal, id, dto);
  }
}
