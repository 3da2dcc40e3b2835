import { Injectable } from '@nestjs/common';
import { AuditWriter } from '../audit-trail/audit-writer';
import type { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import { TenantDatabase } from '../tenancy/tenant-database';
import { assertCompanyAccess, companyScope } from '../access/company-rule';
import { UploadedFile } from './entities/uploaded-file.entity';
import { FileStore } from './file-store';
import { FilesRepository } from './files.repository';
import { FileUploadHooks } from './file-upload-hooks';
import { fileView } from './file-view';
import { LinkTarget } from './link-target';
import { LinkableTargets } from './linkable-targets';
import { ReceivedFile } from './upload-storage';

export const FOLDER = /^[A-Za-z0-9_-]{1,64}(\/[A-Za-z0-9_-]{1,64}){0,4}$/;
export const DEFAULT_FOLDER = 'uploads';
/** A file name as sent: no path separators, no `..`, no control characters. */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const SAFE_NAME = /^(?!.*\.\.)[^/\\\u0000-\u001f\u007f]{1,255}$/;

/**
 * Company file upload: each part (already streamed to a temporary file, hashed and typed by its
 * bytes) is stored once at `companies/<company>/<folder>/<hash><ext>` and recorded; the upload hooks
 * run in the same transaction.
 */
@Injectable()
export class FilesService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly store: FileStore,
    private readonly audit: AuditWriter,
    private readonly hooks: FileUploadHooks,
    private readonly targets: LinkableTargets,
    private readonly records: FilesRepository,
  ) {}

  async upload(
    principal: Principal,
    companyId: number,
    files: ReceivedFile[],
    folder: string | undefined,
    link?: LinkTarget,
  ) {
    assertCompanyAccess(principal, companyId);
    const sub = folder ?? DEFAULT_FOLDER;
    if (!FOLDER.test(sub)) {
      throw AppError.validation([
        { field: 'folder', message: 'folder must be 1 to 5 segments of letters, digits, _ and -' },
      ]);
    }
    if (!files.length) throw AppError.validation([{ field: 'files', message: 'files is required' }]);
    for (const f of files) {
      if (!SAFE_NAME.test(f.originalname)) {
        throw AppError.validation([
          { field: 'files', message: `Invalid file name: ${JSON.stringify(f.originalname)}` },
        ]);
      }
    }
    const uploaded = await this.hooks.prepare(companyId);
    const mimes = files.map((f) => f.type.mime);
    const checkedLink = link ? await this.targets.check(principal, companyId, link, mimes) : null;
    const folderPath = `companies/${companyId}/${sub}`;
    for (const f of files) await this.store.put(`${folderPath}/${f.hash}${f.type.ext}`, f.path);
    const { saved, after } = await this.db.transaction(async (m) => {
      const saved = await this.records.insert(
        m,
        files.map((f) => ({
          companyId,
          name: f.originalname,
          hash: f.hash,
          ext: f.type.ext,
          mime: f.type.mime,
          size: f.size,
          provider: this.store.provider,
          folderPath,
          storageKey: `${folderPath}/${f.hash}${f.type.ext}`,
          ref: link?.ref ?? null,
          refId: link?.refId ?? null,
          field: link?.field ?? null,
          createdById: principal.userId,
        })),
      );
      for (const f of saved) {
        await this.audit.record(m, {
          action: 'CREATE',
          entityType: 'File',
          entityId: f.id,
          companyId,
          message: `Uploaded ${f.name}`,
          metadata: { folderPath, hash: f.hash, mime: f.mime, size: f.size, ...(link ?? {}) },
        });
      }
      const after = await uploaded(m, {
        principal,
        companyId,
        files: saved,
        link: link ?? null,
        checkedLink,
      });
      return { saved, after };
    });
    await after();
    return saved.map(fileView);
  }

  async get(principal: Principal, id: number): Promise<UploadedFile> {
    const company = companyScope(principal, 'files');
    const file = await this.db.run((m) => this.records.find(m, id, company));
    if (!file) throw AppError.notFound('File');
    return file;
  }

  open(file: UploadedFile) {
    return this.store.open(file.storageKey);
  }
}
