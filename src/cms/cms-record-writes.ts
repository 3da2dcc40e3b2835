import { HttpStatus, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import { constraintViolation } from '../database/constraint-violation';
import { RecordChanges } from '../records/record-changes';
import { TenantDatabase } from '../tenancy/tenant-database';
import { creationCompany, recordCompany } from './cms-company-scope';
import { companyLimit } from '../records/engine/record-engine';
import { RecordQueryRepository } from '../records/record-query.repository';
import { RecordWriteRepository } from '../records/record-write.repository';
import { checkReferences, recordValues } from './cms-record-input';
import { CmsMediaRepository } from './cms-media.repository';
import { readRecord, scopedTo, withFreshType } from './cms-record-read';
import { toRecord } from '../records/engine/select';
import { checkValue } from '../records/engine/values';
import { ContentTypeCache } from './content-type-cache';
import { CompiledType, ContentRecord } from './content-type.types';
import { contentRecordKind } from './content-record-kind';

const MAX_BULK = 1000;

/** Writes of custom-table records: each in one transaction, audited and announced as an event. */
@Injectable()
export class CmsRecordWrites {
  constructor(
    private readonly db: TenantDatabase,
    private readonly types: ContentTypeCache,
    private readonly changes: RecordChanges,
    private readonly records: RecordQueryRepository,
    private readonly writes: RecordWriteRepository,
    private readonly media: CmsMediaRepository,
  ) {}

  async create(principal: Principal, collection: string, body: unknown) {
    return withFreshType(this.types, collection, async (type) => {
      const company = creationCompany(type, principal);
      const values = recordValues(type, body, true);
      const data = await this.write(type, async (m) => {
        await checkReferences(
          { writes: this.writes, media: this.media },
          this.types,
          m,
          principal,
          type,
          values,
          company,
        );
        const id = await this.writes.insert(m, type, values, principal.userId, company);
        await this.writes.writeLinks(m, type, id, values);
        const record = await readRecord(this.records, type, id, null, m);
        await this.changes.created(m, contentRecordKind(type, principal), record);
        return record;
      });
      return { data };
    });
  }

  async update(principal: Principal, collection: string, id: number, body: unknown) {
    return withFreshType(this.types, collection, async (type) => {
      const values = recordValues(type, body, false);
      const data = await this.write(type, async (m) => {
        const before = await readRecord(this.records, type, id, companyLimit(type, principal), m, true);
        await checkReferences(
          { writes: this.writes, media: this.media },
          this.types,
          m,
          principal,
          type,
          values,
          recordCompany(type, before),
        );
        return this.applyUpdate(m, principal, type, id, values, before);
      });
      return { data };
    });
  }

  /**
   * Puts freshly uploaded files into a record's media field, in the upload's transaction `m`: a
   * single media field takes the file, a multiple one appends the ids it does not hold yet. The
   * files were checked by the upload (the caller's company, `allowedTypes`); the record is locked
   * and must still exist, of the upload's `company` for a company-scoped type (400 on `refId`).
   * Written, audited and announced like any update.
   */
  async attachMedia(
    m: EntityManager,
    principal: Principal,
    type: CompiledType,
    id: number,
    company: number,
    fieldName: string,
    fileIds: number[],
  ): Promise<void> {
    const field = type.fields.get(fieldName)!;
    const current = await this.writes.lockedValue(m, type, id, fieldName, scopedTo(type, company));
    if (!current) {
      throw AppError.validation([
        { field: 'refId', message: `refId must name a ${type.collectionName} record` },
      ]);
    }
    let value: unknown = fileIds[fileIds.length - 1];
    if (field.def.multiple) {
      const held = (current.value ?? []) as number[];
      const checked = checkValue(field.def, [...held, ...fileIds], null);
      if (!checked.ok)
        throw AppError.validation([{ field: 'field', message: `${fieldName} ${checked.message}` }]);
      value = JSON.stringify(checked.value);
    }
    const before = await readRecord(this.records, type, id, null, m);
    await this.applyUpdate(m, principal, type, id, { [fieldName]: value }, before);
  }

  /** Writes checked values into a locked record: updatedAt/updatedBy, join tables, audit and event. */
  private async applyUpdate(
    m: EntityManager,
    principal: Principal,
    type: CompiledType,
    id: number,
    values: Record<string, unknown>,
    before: ContentRecord,
  ): Promise<ContentRecord> {
    await this.writes.update(m, type, id, values, principal.userId);
    await this.writes.writeLinks(m, type, id, values, true);
    const after = await readRecord(this.records, type, id, null, m);
    await this.changes.updated(m, contentRecordKind(type, principal), before, after);
    return after;
  }

  async remove(principal: Principal, collection: string, id: number): Promise<void> {
    return withFreshType(this.types, collection, async (type) => {
      await this.write(type, async (m) => {
        const before = await readRecord(this.records, type, id, companyLimit(type, principal), m, true);
        await this.writes.remove(m, type, id);
        await this.changes.deleted(m, contentRecordKind(type, principal), before);
      });
    });
  }

  async bulkDelete(principal: Principal, collection: string, body: unknown) {
    return withFreshType(this.types, collection, async (type) => {
      const ids = (body as { ids?: unknown })?.ids;
      const extra = body && typeof body === 'object' ? Object.keys(body).filter((k) => k !== 'ids') : [];
      if (extra.length)
        throw AppError.validation(extra.map((field) => ({ field, message: 'is not accepted' })));
      if (
        !Array.isArray(ids) ||
        !ids.length ||
        ids.length > MAX_BULK ||
        !ids.every((i) => Number.isSafeInteger(i) && i > 0)
      ) {
        throw AppError.validation([
          { field: 'ids', message: `must be an array of 1 to ${MAX_BULK} record ids` },
        ]);
      }
      const count = await this.write(type, async (m) => {
        // Ids of another company's records are not the caller's: skipped as ids that name nothing.
        const rows = await this.writes.removeMany(m, type, ids as number[], companyLimit(type, principal));
        const kind = contentRecordKind(type, principal);
        for (const row of rows) await this.changes.deleted(m, kind, toRecord(type, row));
        return rows.length;
      });
      return { data: { count } };
    });
  }

  async publish(principal: Principal, collection: string, id: number, publish: boolean) {
    return withFreshType(this.types, collection, async (type) => {
      if (!type.definition.options.draftAndPublish) {
        throw AppError.badRequest(`Content type "${collection}" has no draft and publish`);
      }
      const data = await this.write(type, async (m) => {
        const before = await readRecord(this.records, type, id, companyLimit(type, principal), m, true);
        const from = publish ? 'DRAFT' : 'PUBLISHED';
        if (before.publicationStatus !== from) {
          throw new AppError(
            HttpStatus.CONFLICT,
            'INVALID_TRANSITION',
            `Record is ${String(before.publicationStatus)}, not ${from}`,
          );
        }
        await this.writes.setPublication(m, type, id, publish ? principal.userId : null);
        const after = await readRecord(this.records, type, id, null, m);
        const kind = contentRecordKind(type, principal);
        const action = publish ? 'published' : 'unpublished';
        await this.changes.updated(m, kind, before, after, `${kind.event}.${action}`, action);
        return after;
      });
      return { data };
    });
  }

  /** A write transaction; a unique value taken is 409, a reference gone meanwhile 400. */
  private async write<T>(type: CompiledType, work: (m: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (err) {
      const violation = constraintViolation(err);
      if (violation?.kind === 'unique') {
        const field = [...type.fields.values()].find((f) => violation.constraint?.includes(f.column));
        throw new AppError(
          HttpStatus.CONFLICT,
          'CONFLICT',
          `A record with this ${field?.name ?? 'value'} exists`,
          field ? [{ field: field.name, message: 'is taken' }] : undefined,
        );
      }
      if (violation?.kind === 'foreignKey')
        throw AppError.validation([{ field: 'body', message: 'refers to a record that does not exist' }]);
      throw err;
    }
  }
}
