// The public face of files: other features import from this file only.
export { UploadedFile } from './entities/uploaded-file.entity';
export { FileHooksModule } from './file-hooks.module';
export { FileRecords } from './file-records';
export type { AfterCommit, FileUpload, FileUploadHandler } from './file-upload-hooks';
export { FileUploadHooks } from './file-upload-hooks';
export { FilesModule } from './files.module';
export type { LinkTarget } from './link-target';
export type { LinkFallback } from './linkable-targets';
export { LinkableTargets, linkableTable } from './linkable-targets';
