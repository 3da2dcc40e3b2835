import { Module } from '@nestjs/common';
import { FileHooksModule, linkableTable } from '../files';
import { RecordsModule } from '../records/records.module';
import { UnitsController } from './units.controller';
import { UnitsService } from './units.service';
import { UnitsRepository } from './units.repository';
import { Unit } from './entities/unit.entity';

export const UNIT_ENTITIES = [Unit];

@Module({
  imports: [RecordsModule, FileHooksModule],
  controllers: [UnitsController],
  providers: [UnitsService, UnitsRepository, linkableTable('units', ['unit', 'units'])],
  exports: [UnitsService],
})
export class UnitsModule {}
