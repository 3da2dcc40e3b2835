import { Module } from '@nestjs/common';
import { WorkOrdersController } from './work-orders.controller';
import { WorkOrdersService } from './work-orders.service';

@Module({ controllers: [WorkOrdersController], providers: [WorkOrdersService] })
export class WorkOrdersModule {}
