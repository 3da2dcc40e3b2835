import { Module } from '@nestjs/common';
import { RecordCursors } from './engine/cursor';
import { RecordEngine } from './engine/record-engine';
import { RecordChanges } from './record-changes';
import { RecordQueryRepository } from './record-query.repository';
import { RecordsRepository } from './records.repository';
import { RecordWriteRepository } from './record-write.repository';

/** The records layer: the record engine and the change writer; every module of records imports it. */
@Module({
  providers: [
    RecordChanges,
    RecordEngine,
    RecordCursors,
    RecordQueryRepository,
    RecordsRepository,
    RecordWriteRepository,
  ],
  exports: [RecordChanges, RecordEngine, RecordQueryRepository, RecordWriteRepository],
})
export class RecordsModule {}
