import { Module } from '@nestjs/common';
import { RecordCursors } from './engine/cursor';
import { RecordEngine } from './engine/record-engine';
import { RecordChanges } from './record-changes';
import { RecordQueryRepository } from './record-query.repository';

/** The records layer: the record engine and the change writer; every module of records imports it. */
@Module({
  providers: [RecordChanges, RecordEngine, RecordCursors, RecordQueryRepository],
  exports: [RecordChanges, RecordEngine, RecordQueryRepository],
})
export class RecordsModule {}
