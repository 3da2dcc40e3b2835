import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import { rm } from 'node:fs/promises';
import { finalize, from, mergeMap, Observable } from 'rxjs';
import type { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import { assertCompanyAccess } from '../access/company-rule';
import { FileStore } from './file-store';
import { FilesSettings } from './files.settings';
import { hashingStorage, ReceivedFile } from './upload-storage';

const tooLarge = (message: string) => new AppError(413, 'PAYLOAD_TOO_LARGE', message);

/**
 * Reads the multipart `files` parts through multer into temporary files (see upload-storage.ts),
 * with the count and size limits answered as 413. Whatever the handler did not move into the store
 * is removed afterwards.
 */
@Injectable()
export class UploadInterceptor implements NestInterceptor {
  private readonly upload: ReturnType<multer.Multer['array']>;

  constructor(
    private readonly settings: FilesSettings,
    store: FileStore,
  ) {
    this.upload = multer({
      storage: hashingStorage(store.tempDir),
      // Names arrive as sent, so one with a path in it is refused rather than silently cut.
      preservePath: true,
      limits: {
        files: settings.UPLOAD_MAX_FILES,
        fileSize: settings.UPLOAD_MAX_FILE_BYTES,
        fields: 20,
        fieldSize: 1024,
      },
    }).array('files', settings.UPLOAD_MAX_FILES);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    // Refuse another company's path before reading a byte of the body.
    const principal = (req as Request & { principal?: Principal }).principal;
    const companyId = Number(req.params.companyId);
    if (principal && Number.isSafeInteger(companyId)) assertCompanyAccess(principal, companyId);
    const received = new Promise<void>((resolve, reject) =>
      this.upload(req, res, (err: unknown) => (err ? reject(this.toError(err)) : resolve())),
    );
    const cleanup = () => {
      const files = (req.files ?? []) as unknown as ReceivedFile[];
      for (const f of files) void rm(f.path, { force: true });
    };
    return from(received).pipe(
      mergeMap(() => next.handle()),
      finalize(cleanup),
    );
  }

  private toError(err: unknown): Error {
    const code = (err as { code?: string }).code;
    if (code === 'LIMIT_FILE_SIZE') {
      return tooLarge(`A file is larger than ${this.settings.UPLOAD_MAX_FILE_BYTES} bytes`);
    }
    if (code === 'LIMIT_FILE_COUNT' || code === 'LIMIT_UNEXPECTED_FILE') {
      return code === 'LIMIT_FILE_COUNT'
        ? tooLarge(`At most ${this.settings.UPLOAD_MAX_FILES} files per upload`)
        : AppError.validation([{ field: 'files', message: 'files must be sent in the part named files' }]);
    }
    if (code?.startsWith('LIMIT_')) return tooLarge('Upload exceeds the form limits');
    return AppError.badRequest(`Malformed multipart body: ${(err as Error).message}`);
  }
}
