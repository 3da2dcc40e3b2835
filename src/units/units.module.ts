import { Module } from '@nestjs/common';
import { UnitsController } from './units.controller';
import { AssetChanges } from './asset-changes';
import { UnitsService } from './units.service';

@Module({
  controllers: [UnitsController],
  providers: [UnitsService, AssetChanges],
  exports: [UnitsService, AssetChanges],
})
export class UnitsModule {}
