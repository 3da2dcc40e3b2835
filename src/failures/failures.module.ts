import { Module } from '@nestjs/common';
import { RecordsModule } from '../records/records.module';
import { FailuresController } from './failures.controller';
import { FailuresService } from './failures.service';
import { Failure } from './entities/failure.entity';

export const FAILURE_ENTITIES = [Failure];

@Module({ imports: [RecordsModule], controllers: [FailuresController], providers: [FailuresService] })
export class FailuresModule {}
