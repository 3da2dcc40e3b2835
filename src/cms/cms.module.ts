import { Module } from '@nestjs/common';
import { CmsRecordsController } from './cms-records.controller';
import { CmsRecordChanges } from './cms-record-changes';
import { CmsRecordsService } from './cms-records.service';
import { ContentTypeCache } from './content-type-cache';
import { ContentTypeSync } from './content-type-sync.service';
import { ContentTypesController } from './content-types.controller';
import { ContentTypesService } from './content-types.service';

/** Custom tables: runtime content types with real tables, and their records. */
@Module({
  // The definitions controller first: its literal paths win over the records' `:collectionName`.
  controllers: [ContentTypesController, CmsRecordsController],
  providers: [ContentTypeCache, ContentTypesService, ContentTypeSync, CmsRecordsService, CmsRecordChanges],
  exports: [ContentTypeSync],
})
export class CmsModule {}
