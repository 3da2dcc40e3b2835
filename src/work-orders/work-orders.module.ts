import { Module } from '@nestjs/common';
import { RecordsModule } from '../records/records.module';
import { WorkOrdersController } from './work-orders.controller';
import { WorkOrdersService } from './work-orders.service';
import { WorkOrder } from './entities/work-order.entity';

export const WORK_ORDER_ENTITIES = [WorkOrder];

@Module({ imports: [RecordsModule], controllers: [WorkOrdersController], providers: [WorkOrdersService] })
export class WorkOrdersModule {}
