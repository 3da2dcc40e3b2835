import { HttpStatus, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { AppError, FieldError } from '../common/errors/app-error';
import { paged } from '../common/pagination/pagination';
import { constraintViolation } from '../database/constraint-violation';
import { quoteIdent } from '../database/ddl';
import { RecordChanges } from '../records/record-changes';
import { TenantDatabase } from '../tenancy/tenant-database';
import { Params, selectList, toRecord } from './cms-sql';
import {
  companyCondition,
  companyLimit,
  creationCompany,
  isCompanyScoped,
  recordCompany,
  relationCompany,
} from './cms-company-scope';
import { aggregateRows, aggregateStatement, planAggregate } from './query/cms-aggregate';
import { CmsCursors } from './query/cms-cursor';
import { chosenFields } from './query/cms-fields';
import { filterSql } from './query/cms-filter';
import { pageRows, SORT_TEXT } from './query/cms-page';
import { mediaProblems } from './cms-media';
import { checkValue } from './cms-values';
import { ContentTypeCache } from './content-type-cache';
import { CompiledType, ContentRecord } from './content-type.types';
import { contentRecordKind } from './content-record-kind';
import { CmsListQueryDto } from './dto/cms-query.dto';

type Row = Record<string, unknown>;
const MAX_BULK = 1000;
/**
 * undefined_column, undefined_table, and not_null_violation (only `company_id` is NOT NULL without
 * a default): the cached definition is older than the table.
 */
const STALE_DEFINITION = new Set(['42703', '42P01', '23502']);

/** Records of custom tables, through SQL generated from the compiled definition. */
@Injectable()
export class CmsRecordsService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly types: ContentTypeCache,
    private readonly changes: RecordChanges,
    private readonly cursors: CmsCursors,
  ) {}

  async list(principal: Principal, collection: string, q: CmsListQueryDto, filters?: unknown) {
    return this.fresh(collection, async (type) => {
      const fields = chosenFields(type, q.fields);
      const params = new Params();
      const where = [
        ...(await this.filterOf(type, principal, filters, params)),
        ...statusCondition(type, q.status, params),
        ...companyCondition(companyLimit(type, principal), params),
      ];
      const [sort, order] = [q.sort ?? 'id', q.order ?? 'DESC'];
      if (q.after && q.page > 1) {
        throw AppError.validation([{ field: 'after', message: 'takes no page; a cursor names its own' }]);
      }
      const after = q.after ? this.cursors.read(collection, q.after, sort, order) : null;
      const page = { type, fields, where, values: params.values, sort, order, pageSize: q.pageSize };
      // The page walks the sort index and stops after it; the total is its own (index-only) count.
      const [rows, total] = await Promise.all([
        pageRows((sql, values) => this.db.query<Row>(sql, values), {
          ...page,
          offset: after ? 0 : (q.page - 1) * q.pageSize,
          after,
        }),
        this.countWhere(type, where, params.values),
      ]);
      const last = rows[rows.length - 1];
      const nextCursor =
        rows.length === q.pageSize
          ? this.cursors.make(collection, {
              sort,
              order,
              value: last[SORT_TEXT] as string | null,
              id: Number(last.id),
            })
          : null;
      const data = rows.map((row) => {
        delete row[SORT_TEXT];
        return toRecord(type, row);
      });
      const answer = paged(data, total, q.page, q.pageSize);
      return {
        ...answer,
        meta: { pagination: { ...answer.meta.pagination, ...(after ? { page: null } : {}), nextCursor } },
      };
    });
  }

  /** Counts, sums, averages, minima and maxima of the records a filter selects, grouped or not. */
  async aggregate(principal: Principal, collection: string, body: unknown) {
    return this.fresh(collection, async (type) => {
      const plan = planAggregate(type, body);
      const params = new Params();
      const where = [
        ...(await this.filterOf(type, principal, plan.filter, params)),
        ...companyCondition(companyLimit(type, principal), params),
      ];
      const rows = await this.db.query<Row>(aggregateStatement(type, plan, where, params), params.values);
      return { data: aggregateRows(plan, rows) };
    });
  }

  /**
   * The WHERE conditions of a filter body (none for an empty one); a filter through a relation sees
   * only the target rows the caller may see.
   */
  private async filterOf(
    type: CompiledType,
    principal: Principal,
    filters: unknown,
    params: Params,
  ): Promise<string[]> {
    const targetVisibility = (target: CompiledType, alias: string, p: Params) =>
      companyCondition(companyLimit(target, principal), p, alias)[0] ?? null;
    const sql = filterSql({ type, types: await this.types.all(), targetVisibility }, filters, params);
    return sql ? [sql] : [];
  }

  async count(principal: Principal, collection: string, status?: 'draft' | 'published') {
    return this.fresh(collection, async (type) => {
      const params = new Params();
      const where = [
        ...statusCondition(type, status, params),
        ...companyCondition(companyLimit(type, principal), params),
      ];
      return { data: { count: await this.countWhere(type, where, params.values) } };
    });
  }

  async get(principal: Principal, collection: string, id: number) {
    return this.fresh(collection, async (type) => {
      return { data: await this.read(type, id, companyLimit(type, principal)) };
    });
  }

  async create(principal: Principal, collection: string, body: unknown) {
    return this.fresh(collection, async (type) => {
      const company = creationCompany(type, principal);
      const values = this.valuesOf(type, body, true);
      const data = await this.write(type, async (m) => {
        await this.checkReferences(m, principal, type, values, company);
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
        await this.writeLinks(m, type, Number(id), values);
        const record = await this.read(type, Number(id), null, m);
        await this.changes.created(m, contentRecordKind(type, principal), record);
        return record;
      });
      return { data };
    });
  }

  async update(principal: Principal, collection: string, id: number, body: unknown) {
    return this.fresh(collection, async (type) => {
      const values = this.valuesOf(type, body, false);
      const data = await this.write(type, async (m) => {
        const before = await this.read(type, id, companyLimit(type, principal), m, true);
        await this.checkReferences(m, principal, type, values, recordCompany(type, before));
        return this.applyUpdate(m, principal, type, id, values, before);
      });
      return { data };
    });
  }

  /** Whether a record of the type exists (of `company`, for a company-scoped type). */
  async exists(type: CompiledType, id: number, company: number): Promise<boolean> {
    const params = new Params();
    const where = [`t.id = ${params.add(id)}`, ...companyCondition(scopedTo(type, company), params)];
    const rows = await this.db.query(
      `SELECT 1 FROM ${quoteIdent(type.table)} t WHERE ${where.join(' AND ')}`,
      params.values,
    );
    return rows.length > 0;
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
    const where = [`t.id = ${params.add(id)}`, ...companyCondition(scopedTo(type, company), params)];
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
    const before = await this.read(type, id, null, m);
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
    await this.writeLinks(m, type, id, values, true);
    const after = await this.read(type, id, null, m);
    await this.changes.updated(m, contentRecordKind(type, principal), before, after);
    return after;
  }

  async remove(principal: Principal, collection: string, id: number): Promise<void> {
    return this.fresh(collection, async (type) => {
      await this.write(type, async (m) => {
        const before = await this.read(type, id, companyLimit(type, principal), m, true);
        await m.query(`DELETE FROM ${quoteIdent(type.table)} WHERE id = $1`, [id]);
        await this.changes.deleted(m, contentRecordKind(type, principal), before);
      });
    });
  }

  async bulkDelete(principal: Principal, collection: string, body: unknown) {
    return this.fresh(collection, async (type) => {
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
          ...companyCondition(companyLimit(type, principal), params),
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
    return this.fresh(collection, async (type) => {
      if (!type.definition.options.draftAndPublish) {
        throw AppError.badRequest(`Content type "${collection}" has no draft and publish`);
      }
      const data = await this.write(type, async (m) => {
        const before = await this.read(type, id, companyLimit(type, principal), m, true);
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
        const after = await this.read(type, id, null, m);
        const kind = contentRecordKind(type, principal);
        const action = publish ? 'published' : 'unpublished';
        await this.changes.updated(m, kind, before, after, `${kind.event}.${action}`, action);
        return after;
      });
      return { data };
    });
  }

  /**
   * Runs `work` with the type's compiled definition. When the table no longer matches it (another
   * replica changed the type and its invalidation is still on the way), the local entry is dropped
   * and the work runs once more with the definition read afresh.
   */
  private async fresh<T>(collection: string, work: (type: CompiledType) => Promise<T>): Promise<T> {
    try {
      return await work(await this.types.get(collection));
    } catch (err) {
      if (!STALE_DEFINITION.has((err as { code?: string }).code ?? '')) throw err;
      this.types.forget();
      return work(await this.types.get(collection));
    }
  }

  /** Checks a body against the definition: unknown fields, types, options, required; defaults fill gaps on create. */
  private valuesOf(type: CompiledType, body: unknown, creating: boolean): Record<string, unknown> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw AppError.validation([{ field: 'body', message: 'must be an object of record fields' }]);
    }
    const input = body as Record<string, unknown>;
    const errors: FieldError[] = [];
    const values: Record<string, unknown> = {};
    for (const name of Object.keys(input)) {
      if (!type.fields.has(name))
        errors.push({ field: name, message: 'is not a field of this content type' });
    }
    for (const field of type.fields.values()) {
      const given = Object.prototype.hasOwnProperty.call(input, field.name);
      let value = given ? input[field.name] : undefined;
      if (!given && creating && field.def.default !== undefined) value = field.def.default;
      if (value === undefined) {
        if (creating && field.def.required) errors.push({ field: field.name, message: 'is required' });
        continue;
      }
      if (value === null && field.def.required) {
        errors.push({ field: field.name, message: 'is required' });
        continue;
      }
      const checked = checkValue(field.def, value, field.regex);
      if (!checked.ok) errors.push({ field: field.name, message: checked.message });
      else if (Array.isArray(checked.value) && !field.joinTable)
        values[field.name] = JSON.stringify(checked.value);
      else values[field.name] = checked.value;
      if (checked.ok && field.joinTable && field.def.required && (checked.value as unknown[]).length === 0) {
        errors.push({ field: field.name, message: 'is required' });
      }
    }
    if (errors.length) throw AppError.validation(errors);
    return values;
  }

  /**
   * A relation to a record that does not exist is 400 naming the field, and so is one to a record of
   * another company than the record's (`company`; the caller's scope for a client-scoped record)
   * when the target type is company-scoped, a media id that names no uploaded file of the caller's
   * company (and of the record's) or a file outside the field's `allowedTypes`.
   */
  private async checkReferences(
    m: EntityManager,
    principal: Principal,
    type: CompiledType,
    values: Record<string, unknown>,
    company: number | null,
  ) {
    const errors: FieldError[] = [];
    const types = await this.types.all();
    for (const [name, value] of Object.entries(values)) {
      const field = type.fields.get(name)!;
      if (!field.targetTable || value === null) continue;
      const ids = Array.isArray(value) ? (value as number[]) : [value as number];
      if (!ids.length) continue;
      const target = types.get(field.def.target!);
      const params = new Params();
      const where = [
        `t.id = ANY(${params.add(ids, 'bigint[]')})`,
        ...companyCondition(target ? relationCompany(target, company, principal) : null, params),
      ];
      const found = await m.query(
        `SELECT t.id FROM ${quoteIdent(field.targetTable)} t WHERE ${where.join(' AND ')}`,
        params.values,
      );
      if (found.length !== ids.length)
        errors.push({ field: name, message: `refers to a ${field.def.target} record that does not exist` });
    }
    errors.push(...(await mediaProblems(m, principal, type, values, company)));
    if (errors.length) throw AppError.validation(errors);
  }

  private async writeLinks(
    m: EntityManager,
    type: CompiledType,
    id: number,
    values: Record<string, unknown>,
    replace = false,
  ) {
    for (const [name, value] of Object.entries(values)) {
      const field = type.fields.get(name)!;
      if (!field.joinTable) continue;
      const join = quoteIdent(field.joinTable);
      if (replace) await m.query(`DELETE FROM ${join} WHERE source_id = $1`, [id]);
      const ids = (value ?? []) as number[];
      if (ids.length) {
        await m.query(`INSERT INTO ${join} (source_id, target_id) SELECT $1, unnest($2::bigint[])`, [
          id,
          ids,
        ]);
      }
    }
  }

  /** One record, within the company `limit` (null: any); 404 when there is none. */
  private async read(
    type: CompiledType,
    id: number,
    limit: number | null,
    m?: EntityManager,
    lock = false,
  ): Promise<ContentRecord> {
    const params = new Params();
    const where = [`t.id = ${params.add(id)}`, ...companyCondition(limit, params)];
    const sql = `SELECT ${selectList(type)} FROM ${quoteIdent(type.table)} t WHERE ${where.join(' AND ')}${lock ? ' FOR UPDATE' : ''}`;
    const rows: Row[] = m ? await m.query(sql, params.values) : await this.db.query<Row>(sql, params.values);
    if (!rows.length) throw AppError.notFound('Record');
    return toRecord(type, rows[0]);
  }

  private async countWhere(type: CompiledType, where: string[], values: unknown[]): Promise<number> {
    const [row] = await this.db.query<{ count: string }>(
      `SELECT count(*) AS count FROM ${quoteIdent(type.table)} t ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
      values,
    );
    return Number(row.count);
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

/** The company limit of a company-scoped type's record reached through `company` (null: a client-scoped type). */
const scopedTo = (type: CompiledType, company: number) => (isCompanyScoped(type) ? company : null);

function statusCondition(
  type: CompiledType,
  status: 'draft' | 'published' | undefined,
  params: Params,
): string[] {
  if (!status || !type.definition.options.draftAndPublish) return [];
  return [`t."publication_status" = ${params.add(status === 'draft' ? 'DRAFT' : 'PUBLISHED')}`];
}
