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
/** undefined_column, undefined_table: the cached definition is older than the table. */
const STALE_DEFINITION = new Set(['42703', '42P01']);

/** Records of custom tables, through SQL generated from the compiled definition. */
@Injectable()
export class CmsRecordsService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly types: ContentTypeCache,
    private readonly changes: RecordChanges,
    private readonly cursors: CmsCursors,
  ) {}

  async list(collection: string, q: CmsListQueryDto, filters?: unknown) {
    return this.fresh(collection, async (type) => {
      const fields = chosenFields(type, q.fields);
      const params = new Params();
      const where = [
        ...(await this.filterOf(type, filters, params)),
        ...statusCondition(type, q.status, params),
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
  async aggregate(collection: string, body: unknown) {
    return this.fresh(collection, async (type) => {
      const plan = planAggregate(type, body);
      const params = new Params();
      const where = await this.filterOf(type, plan.filter, params);
      const rows = await this.db.query<Row>(aggregateStatement(type, plan, where, params), params.values);
      return { data: aggregateRows(plan, rows) };
    });
  }

  /** The WHERE conditions of a filter body (none for an empty one). */
  private async filterOf(type: CompiledType, filters: unknown, params: Params): Promise<string[]> {
    const sql = filterSql({ type, types: await this.types.all() }, filters, params);
    return sql ? [sql] : [];
  }

  async count(collection: string, status?: 'draft' | 'published') {
    return this.fresh(collection, async (type) => {
      const params = new Params();
      return {
        data: { count: await this.countWhere(type, statusCondition(type, status, params), params.values) },
      };
    });
  }

  async get(collection: string, id: number) {
    return this.fresh(collection, async (type) => {
      return { data: await this.read(type, id) };
    });
  }

  async create(principal: Principal, collection: string, body: unknown) {
    return this.fresh(collection, async (type) => {
      const values = this.valuesOf(type, body, true);
      const data = await this.write(type, async (m) => {
        await this.checkReferences(m, principal, type, values);
        const params = new Params();
        const columns = ['"created_by_id"', '"updated_by_id"'];
        const placeholders = [params.add(principal.userId), params.add(principal.userId)];
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
        const record = await this.read(type, Number(id), m);
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
        const before = await this.read(type, id, m, true);
        await this.checkReferences(m, principal, type, values);
        return this.applyUpdate(m, principal, type, id, values, before);
      });
      return { data };
    });
  }

  /** Whether a record of the type exists. */
  async exists(type: CompiledType, id: number): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM ${quoteIdent(type.table)} WHERE id = $1`, [id]);
    return rows.length > 0;
  }

  /**
   * Puts freshly uploaded files into a record's media field, in the upload's transaction `m`: a
   * single media field takes the file, a multiple one appends the ids it does not hold yet. The
   * files were checked by the upload (the caller's company, `allowedTypes`); the record is locked
   * and must still exist (400 on `refId`). Written, audited and announced like any update.
   */
  async attachMedia(
    m: EntityManager,
    principal: Principal,
    type: CompiledType,
    id: number,
    fieldName: string,
    fileIds: number[],
  ): Promise<void> {
    const field = type.fields.get(fieldName)!;
    const [current] = await m.query(
      `SELECT ${quoteIdent(field.column)} AS value FROM ${quoteIdent(type.table)} WHERE id = $1 FOR UPDATE`,
      [id],
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
    const before = await this.read(type, id, m);
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
    const after = await this.read(type, id, m);
    await this.changes.updated(m, contentRecordKind(type, principal), before, after);
    return after;
  }

  async remove(principal: Principal, collection: string, id: number): Promise<void> {
    return this.fresh(collection, async (type) => {
      await this.write(type, async (m) => {
        const before = await this.read(type, id, m, true);
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
        const rows = await m.query(
          `SELECT ${selectList(type)} FROM ${quoteIdent(type.table)} t WHERE t.id = ANY($1::bigint[]) FOR UPDATE`,
          [ids],
        );
        if (rows.length)
          await m.query(`DELETE FROM ${quoteIdent(type.table)} WHERE id = ANY($1::bigint[])`, [ids]);
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
        const before = await this.read(type, id, m, true);
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
        const after = await this.read(type, id, m);
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
   * A relation to a record that does not exist is 400 naming the field, and so is a media id that
   * names no uploaded file of the caller's company or a file outside the field's `allowedTypes`.
   */
  private async checkReferences(
    m: EntityManager,
    principal: Principal,
    type: CompiledType,
    values: Record<string, unknown>,
  ) {
    const errors: FieldError[] = [];
    for (const [name, value] of Object.entries(values)) {
      const field = type.fields.get(name)!;
      if (!field.targetTable || value === null) continue;
      const ids = Array.isArray(value) ? (value as number[]) : [value as number];
      if (!ids.length) continue;
      const found = await m.query(
        `SELECT id FROM ${quoteIdent(field.targetTable)} WHERE id = ANY($1::bigint[])`,
        [ids],
      );
      if (found.length !== ids.length)
        errors.push({ field: name, message: `refers to a ${field.def.target} record that does not exist` });
    }
    errors.push(...(await mediaProblems(m, principal, type, values)));
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

  private async read(
    type: CompiledType,
    id: number,
    m?: EntityManager,
    lock = false,
  ): Promise<ContentRecord> {
    const sql = `SELECT ${selectList(type)} FROM ${quoteIdent(type.table)} t WHERE t.id = $1${lock ? ' FOR UPDATE' : ''}`;
    const rows: Row[] = m ? await m.query(sql, [id]) : await this.db.query<Row>(sql, [id]);
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

function statusCondition(
  type: CompiledType,
  status: 'draft' | 'published' | undefined,
  params: Params,
): string[] {
  if (!status || !type.definition.options.draftAndPublish) return [];
  return [`t."publication_status" = ${params.add(status === 'draft' ? 'DRAFT' : 'PUBLISHED')}`];
}
