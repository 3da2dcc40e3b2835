import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import { FileUpload, FileUploadHooks, LinkableTargets, LinkTarget } from '../files';
import { allowedTypesText, fitsAllowedTypes } from './cms-media';
import { assertCms } from './cms-permissions';
import { CmsRecordQueries } from './cms-record-queries';
import { CmsRecordWrites } from './cms-record-writes';
import { ContentTypeCache } from './content-type-cache';
import { CompiledType } from './content-type.types';

/** A checked link of uploads to a custom table's media field. */
export class MediaLink {
  constructor(
    readonly type: CompiledType,
    readonly refId: number,
    readonly companyId: number,
    readonly field: string,
  ) {}
}

/**
 * Custom tables in the company upload (`/link`), as the files' fallback link target and an upload
 * hook: checking that `ref`, `field` and `refId` name a media field of a record before the files are
 * stored, and writing the new file ids into that field inside the upload's transaction.
 */
@Injectable()
export class CmsMediaLinks implements OnModuleInit {
  constructor(
    private readonly types: ContentTypeCache,
    private readonly queries: CmsRecordQueries,
    private readonly writes: CmsRecordWrites,
    private readonly targets: LinkableTargets,
    private readonly uploads: FileUploadHooks,
  ) {}

  onModuleInit() {
    this.targets.registerFallback((principal, companyId, link, mimes) =>
      this.check(principal, companyId, link, mimes),
    );
    this.uploads.register({ uploaded: (m, upload) => this.attachUpload(m, upload) });
  }

  /**
   * The link when `ref` names a content type of the current schema, else null (not a custom table).
   * The caller must hold `cms:update` or `cms.<ref>:update` (403). The field must be a media field
   * of the type, the record must exist (of the uploading `companyId` for a company-scoped type) and
   * every file (by its detected MIME type) must fit the field's `allowedTypes`: 400 naming `field`,
   * `refId` or `files`.
   */
  async check(
    principal: Principal,
    companyId: number,
    link: LinkTarget,
    mimes: string[],
  ): Promise<MediaLink | null> {
    const type = (await this.types.all()).get(link.ref);
    if (!type) return null;
    assertCms(principal, type.collectionName, 'update');
    const def = type.fields.get(link.field)?.def;
    if (def?.type !== 'media') {
      throw AppError.validation([{ field: 'field', message: `field must be a media field of ${link.ref}` }]);
    }
    if (!def.multiple && mimes.length > 1) {
      throw AppError.validation([{ field: 'files', message: `${link.field} holds a single file` }]);
    }
    if (!mimes.every((mime) => fitsAllowedTypes(def, mime))) {
      throw AppError.validation([{ field: 'files', message: `${link.field} ${allowedTypesText(def)}` }]);
    }
    if (!(await this.queries.exists(type, link.refId, companyId))) {
      throw AppError.validation([{ field: 'refId', message: `refId must name a ${link.ref} record` }]);
    }
    return new MediaLink(type, link.refId, companyId, link.field);
  }

  /** Sets (single) or appends to (multiple) the record's media field, in the upload's transaction. */
  private async attachUpload(m: EntityManager, { principal, files, checkedLink: link }: FileUpload) {
    if (!(link instanceof MediaLink)) return;
    const fileIds = files.map((f) => f.id);
    await this.writes.attachMedia(m, principal, link.type, link.refId, link.companyId, link.field, fileIds);
  }
}
