import { Module } from '@nestjs/common';
import { FileUploadHooks } from './file-upload-hooks';
import { LinkTargetsRepository } from './link-targets.repository';
import { LinkableTargets } from './linkable-targets';

/**
 * Where other features plug into uploads: the upload hooks and the linkable record types. It has
 * no routes, so a feature registering here does not move the files routes, which FilesModule's
 * place in the application decides.
 */
@Module({
  providers: [LinkTargetsRepository, FileUploadHooks, LinkableTargets],
  exports: [FileUploadHooks, LinkableTargets],
})
export class FileHooksModule {}
