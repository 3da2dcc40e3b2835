import { Injectable } from '@nestjs/common';
import { AuditWriter } from '../audit-trail/audit-writer';
import type { Principal } from '../access/principal';
import { CmsMediaLinks, MediaLink } from '../cms/cms-media-links';
import { AppError } from '../common/errors/app-error';
import { DocumentIntake } from '../documents/document-intake';
import { TenantDatabase } from '../tenancy/tenant-database';
import { assertCompanyAccess, companyScope } from '../access/company-rule';
import { UploadedFile } from './entities/uploaded-file.entity';
import { FileStore } from './file-store';
import { fileView } from './file-view';
import { ReceivedFile } from './upload-storage';

export const FOLDER = /^[A-Za-z0-9_-]{1,64}(\/[A-Za-z0-9_-]{1,64}){0,4}$/;
export const DEFAULT_FOLDER = 'uploads';
/** A file name as sent: no path separators, no `..`, no control characters. */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const SAFE_NAME = /^(?!.*\.\.)[^/\\\u0000-\u001f\u007f]{1,255}$/;

/** Record types of this service a link is checked against (custom tables are checked by the cms module). */
const LINKABLE: Record<string, string> = {
  unit: 'units',
  units: 'units',
  work_order: 'work_orders',
  work_orders: 'work_orders',
  failure: 'failures',
  failures: 'failures',
};

export interface LinkTarget {
  ref: string;
  refId: number;
  field: string;
}

/**
 * Company file upload: each part (already streamed to a temporary file, hashed and typed by its
 * bytes) is stored once at `companies/<company>/<folder>/<hash><ext>`, recorded, and handed to the
 * document intake, which decides its OCR status in the same transaction.
 */
@Injectable()
export class FilesService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly store: FileStore,
    private readonly intake: DocumentIntake,
    private readonly audit: AuditWriter,
    private readonly cmsLinks: CmsMediaLinks,
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
    const config = await this.intake.config(companyId);
    const mediaLink = link ? await this.checkLink(principal, companyId, link, files) : null;
    const folderPath = `companies/${companyId}/${sub}`;
    for (const f of files) await this.store.put(`${folderPath}/${f.hash}${f.type.ext}`, f.path);
    const { saved, after } = await this.db.transaction(async (m) => {
      const rows = files.map((f) =>
        m.create(UploadedFile, {
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
        }),
      );
      const saved = await m.save(rows);
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
      const ids = saved.map((f) => f.id);
      if (mediaLink) await this.cmsLinks.attach(m, principal, mediaLink, ids);
      const after = await this.intake.created(m, config, saved);
      return { saved, after };
    });
    await after();
    return saved.map(fileView);
  }

  /**
   * A link to a known record type must name a record of the company (400 on refId otherwise); a
   * link to a custom table must name a media field of one of its records that takes these files
   * (answered, to be written with the file rows). Any other ref is kept as given.
   */
  private async checkLink(
    principal: Principal,
    companyId: number,
    link: LinkTarget,
    files: ReceivedFile[],
  ): Promise<MediaLink | null> {
    const table = LINKABLE[link.ref.toLowerCase()];
    if (!table) {
      const mimes = files.map((f) => f.type.mime);
      return this.cmsLinks.check(principal, link, mimes);
    }
    const rows = await this.db.run((m) =>
      m.query<unknown[]>(`SELECT 1 FROM ${table} WHERE id = $1 AND company_id = $2`, [link.refId, companyId]),
    );
    if (!rows.length) {
      throw AppError.validation([
        { field: 'refId', message: `refId must name a ${link.ref} of the company` },
      ]);
    }
    return null;
  }

  async get(principal: Principal, id: number): Promise<UploadedFile> {
    const company = companyScope(principal, 'files');
    const file = await this.db.run((m) =>
      m.findOne(UploadedFile, { where: company === null ? { id } : { id, companyId: company } }),
    );
    if (!file) throw AppError.notFound('File');
    return file;
  }

  open(file: UploadedFile) {
    return this.store.open(file.storageKey);
  }
}
