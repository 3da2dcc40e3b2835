import { HttpStatus, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import { constraintViolation } from '../database/constraint-violation';
import { quoteIdent } from '../database/ddl';
import { RecordChanges } from '../records/record-changes';
import { TenantDatabase } from '../tenancy/tenant-database';
import { creationCompany, recordCompany } from './cms-company-scope';
import { companyLimit, limitCondition } from '../records/engine/record-engine';
import { RecordQueryRepository } from '../records/record-query.repository';
import { checkReferences, recordValues, writeLinks } from './cms-record-input';
import { readRecord, Row, scopedTo, withFreshType } from './cms-record-read';
import { Params } from '../records/engine/params';
import { selectList, toRecord } from '../records/engine/select';
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
  ) {}

  async create(principal: Principal, collection: string, body: unknown) {
    return withFreshType(this.types, collection, async (type) => {
      const company = creationCompany(type, principal);
      const values = recordValues(type, body, true);
      const data = await this.write(type, async (m) => {
        await checkReferences(this.types, m, principal, type, values, company);
        const params = new Params();
        const columns = ['"created_by_id"', '"updated_by_id"'];
        const placeholders = [params.add(principal.userId), params.add(principal.userId)];
        if (company !== null) {
          columns.push('"company_id"');
          placeholders.push(params.add(company));
        }
        for (const [name, value] of Object.entries(values)) {
          const field = type.fields.get(name)!;
          if (field.joinTable) continue;
          columns.push(quoteIdent(field.column));
          placeholders.push(params.add(value, field.sqlType!));
        }
        const [{ id }] = await m.query(
          `INSERT INTO ${quoteIdent(type.table)} (${columns.join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING id`,
          params.values,
        );
        await writeLinks(m, type, Number(id), values);
        const record = await readRecord(this.records, type, Number(id), null, m);
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
        await checkReferences(this.types, m, principal, type, values, recordCompany(type, before));
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
    const params = new Params();
    const where = [`t.id = ${params.add(id)}`, ...limitCondition(scopedTo(type, company), params)];
    const [current] = await m.query(
      `SELECT t.${quoteIdent(field.column)} AS value FROM ${quoteIdent(type.table)} t WHERE ${where.join(' AND ')} FOR UPDATE`,
      params.values,
    );
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
    const params = new Params();
    const sets = [`"updated_at" = now()`, `"updated_by_id" = ${params.add(principal.userId)}`];
    for (const [name, value] of Object.entries(values)) {
      const field = type.fields.get(name)!;
      if (!field.joinTable) sets.push(`${quoteIdent(field.column)} = ${params.add(value, field.sqlType!)}`);
    }
    await m.query(
      `UPDATE ${quoteIdent(type.table)} SET ${sets.join(', ')} WHERE id = ${params.add(id)}`,
      params.values,
    );
    await writeLinks(m, type, id, values, true);
    const after = await readRecord(this.records, type, id, null, m);
    await this.changes.updated(m, contentRecordKind(type, principal), before, after);
    return after;
  }

  async remove(principal: Principal, collection: string, id: number): Promise<void> {
    return withFreshType(this.types, collection, async (type) => {
      await this.write(type, async (m) => {
        const before = await readRecord(this.records, type, id, companyLimit(type, principal), m, true);
        await m.query(`DELETE FROM ${quoteIdent(type.table)} WHERE id = $1`, [id]);
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
        const params = new Params();
        const where = [
          `t.id = ANY(${params.add(ids, 'bigint[]')})`,
          ...limitCondition(companyLimit(type, principal), params),
        ];
        const rows = await m.query(
          `SELECT ${selectList(type)} FROM ${quoteIdent(type.table)} t WHERE ${where.join(' AND ')} FOR UPDATE`,
          params.values,
        );
        if (rows.length) {
          await m.query(`DELETE FROM ${quoteIdent(type.table)} WHERE id = ANY($1::bigint[])`, [
            rows.map((row: Row) => row.id),
          ]);
        }
        const kind = contentRecordKind(type, principal);
        for (const row of rows) await this.changes.deleted(m, kind, toRecord(type, row));
        return rows.length as number;
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
        const sets = publish
          ? `"publication_status" = 'PUBLISHED', "published_at" = now(), "published_by_id" = $2`
          : `"publication_status" = 'DRAFT', "published_at" = NULL, "published_by_id" = NULL`;
        await m.query(
          `UPDATE ${quoteIdent(type.table)} SET ${sets}, "updated_at" = now() WHERE id = $1`,
          publish ? [id, principal.userId] : [id],
        );
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
