import { Module } from '@nestjs/common';
import { FileHooksModule, linkableTable } from '../files';
import { RecordsModule } from '../records/records.module';
import { FailuresController } from './failures.controller';
import { FailuresService } from './failures.service';
import { Failure } from './entities/failure.entity';

export const FAILURE_ENTITIES = [Failure];

@Module({
  imports: [RecordsModule, FileHooksModule],
  controllers: [FailuresController],
  providers: [FailuresService, linkableTable('failures', ['failure', 'failures'])],
})
export class FailuresModule {}
