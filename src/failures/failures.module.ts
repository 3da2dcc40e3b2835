import { Module } from '@nestjs/common';
import { UnitsModule } from '../units/units.module';
import { FailuresController } from './failures.controller';
import { FailuresService } from './failures.service';

@Module({ imports: [UnitsModule], controllers: [FailuresController], providers: [FailuresService] })
export class FailuresModule {}
