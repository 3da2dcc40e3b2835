import { Module } from '@nestjs/common';
import { RecordsModule } from '../records/records.module';
import { UnitsController } from './units.controller';
import { UnitsService } from './units.service';
import { Unit } from './entities/unit.entity';

export const UNIT_ENTITIES = [Unit];

@Module({
  imports: [RecordsModule],
  controllers: [UnitsController],
  providers: [UnitsService],
  exports: [UnitsService],
})
export class UnitsModule {}
