import { Module } from '@nestjs/common';
import { RecordsModule } from '../records/records.module';
import { FailuresController } from './failures.controller';
import { FailuresService } from './failures.service';

@Module({ imports: [RecordsModule], controllers: [FailuresController], providers: [FailuresService] })
export class FailuresModule {}
