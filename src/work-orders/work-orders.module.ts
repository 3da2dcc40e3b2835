import { Module } from '@nestjs/common';
import { FileHooksModule, linkableTable } from '../files';
import { RecordsModule } from '../records/records.module';
import { WorkOrdersController } from './work-orders.controller';
import { WorkOrdersService } from './work-orders.service';
import { WorkOrder } from './entities/work-order.entity';

export const WORK_ORDER_ENTITIES = [WorkOrder];

@Module({
  imports: [RecordsModule, FileHooksModule],
  controllers: [WorkOrdersController],
  providers: [WorkOrdersService, linkableTable('work_orders', ['work_order', 'work_orders'])],
})
export class WorkOrdersModule {}
