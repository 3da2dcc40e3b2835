import { Module } from '@nestjs/common';
import { UnitsModule } from '../units/units.module';
import { WorkOrdersController } from './work-orders.controller';
import { WorkOrdersService } from './work-orders.service';

@Module({ imports: [UnitsModule], controllers: [WorkOrdersController], providers: [WorkOrdersService] })
export class WorkOrdersModule {}
