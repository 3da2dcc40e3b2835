import { Module } from '@nestjs/common';
import { FileHooksModule } from '../files';
import { RecordsModule } from '../records/records.module';
import { CmsDdlRunner } from './cms-ddl-runner';
import { CmsMediaLinks } from './cms-media-links';
import { CmsMediaRepository } from './cms-media.repository';
import { CmsDdlRepository } from './cms-ddl.repository';
import { CmsRecordsController } from './cms-records.controller';
import { CmsRecordQueries } from './cms-record-queries';
import { CmsRecordWrites } from './cms-record-writes';
import { ContentTypeCache } from './content-type-cache';
import { ContentTypeSync } from './content-type-sync.service';
import { ContentTypesController } from './content-types.controller';
import { ContentTypesService } from './content-types.service';

/** Custom tables: runtime content types with real tables, and their records. */
@Module({
  imports: [FileHooksModule, RecordsModule],
  // The definitions controller first: its literal paths win over the records' `:collectionName`.
  controllers: [ContentTypesController, CmsRecordsController],
  providers: [
    ContentTypeCache,
    CmsDdlRunner,
    ContentTypesService,
    ContentTypeSync,
    CmsRecordQueries,
    CmsRecordWrites,
    CmsMediaLinks,
    CmsMediaRepository,
    CmsDdlRepository,
  ],
  exports: [ContentTypeSync],
})
export class CmsModule {}
