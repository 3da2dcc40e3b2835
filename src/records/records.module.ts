import { Module } from '@nestjs/common';
import { RecordChanges } from './record-changes';

/** The records layer's one provider; every module of company-scoped records imports it. */
@Module({ providers: [RecordChanges], exports: [RecordChanges] })
export class RecordsModule {}
