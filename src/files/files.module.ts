import { Module } from '@nestjs/common';
import { settingsProvider } from '../config/config.module';
import { UploadedFile } from './entities/uploaded-file.entity';
import { FileHooksModule } from './file-hooks.module';
import { FileRecords } from './file-records';
import { FileStore } from './file-store';
import { FilesController } from './files.controller';
import { FilesRepository } from './files.repository';
import { FilesService } from './files.service';
import { FilesSettings } from './files.settings';
import { UploadController } from './upload.controller';
import { UploadInterceptor } from './upload.interceptor';

export const FILE_ENTITIES = [UploadedFile];

/**
 * Company file upload, storage and the file records. Knows no feature that uses files: those
 * register with the upload hooks and linkable targets (FileHooksModule, exported here too).
 */
@Module({
  imports: [FileHooksModule],
  controllers: [UploadController, FilesController],
  providers: [
    settingsProvider(FilesSettings),
    FilesRepository,
    FileStore,
    UploadInterceptor,
    FilesService,
    FileRecords,
  ],
  exports: [FileHooksModule, FileRecords],
})
export class FilesModule {}
