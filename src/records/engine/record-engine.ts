import { Injectable } from '@nestjs/common';
import { companyCondition, companyScope } from '../../access/company-rule';
import { Principal } from '../../access/principal';
import { AppError } from '../../common/errors/app-error';
import { paged } from '../../common/pagination/pagination';
import { RecordQueryRepository, RecordRow } from '../record-query.repository';
import { aggregateRows, planAggregate } from './aggregate';
import { fieldCondition } from './conditions';
import { RecordCursors } from './cursor';
import { chosenFields } from './fields';
import { filterSql, FilterScope } from './filter';
import { SORT_TEXT } from './page';
import { Params } from './params';
import { EngineRecord, RecordType } from './record-type';
import { queryableField, toRecord } from './select';

/** What a list asks of the engine: the page, its order and the engine's own parameters. */
export interface EngineListQuery {
  page: number;
  pageSize: number;
  sort?: string;
  order?: 'ASC' | 'DESC';
  /** `fields=a,b` */
  fields?: string;
  /** A cursor: `meta.pagination.nextCursor` of the previous page. */
  after?: string;
}

/** Filters through relations: the types they reach and what the caller may see of them. */
export type RelationScope = Omit<FilterScope, 'type'>;

export interface ListOptions {
  /** A filter in the engine's language (`{ status: 'ACTIVE', $or: [...] }`). */
  filter?: unknown;
  /** Equality conditions by field name; undefined (or null) values filter nothing. */
  equals?: Record<string, unknown>;
  /** The type's own further conditions (a publication status, ...). */
  conditions?: (params: Params) => string[];
  relations?: RelationScope;
  /** Answer `nextCursor` (and `page: null` after a cursor) in `meta.pagination`. */
  cursors: boolean;
}

const NO_RELATIONS: RelationScope = {
  types: new Map(),
  assertReadable: () => undefined,
  targetVisibility: () => null,
};

/** The company a caller's reads of the type are limited to: null (none) for a type without companies. */
export function companyLimit(type: RecordType, principal: Principal): number | null {
  return type.companyScoped ? companyScope(principal, 'records') : null;
}

/** The condition keeping the rows of `alias` within `limit` (none for null), from the company rule. */
export function limitCondition(limit: number | null, params: Params, alias = 't'): string[] {
  if (limit === null) return [];
  params.values.push(limit);
  return [companyCondition(`${alias}."company_id"`, params.values.length)];
}

/** `?filter=` of a list: the filter language as JSON text; 400 on `filter` when it is not. */
export function parseFilter(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw AppError.validation([{ field: 'filter', message: 'must be a JSON filter object' }]);
  }
}

/**
 * The record engine: lists (by page number or cursor, narrowed by `fields=`, filtered in the
 * filter language), counts and aggregates of every record type, built-in or custom, within the
 * caller's company scope. Its statements are `RecordQueryRepository`'s.
 */
@Injectable()
export class RecordEngine {
  constructor(
    private readonly records: RecordQueryRepository,
    private readonly cursors: RecordCursors,
  ) {}

  async list(type: RecordType, principal: Principal, q: EngineListQuery, o: ListOptions) {
    const fields = chosenFields(type, q.fields);
    const params = new Params();
    const where = this.where(type, principal, params, o);
    const [sort, order] = [q.sort ?? 'id', q.order ?? 'DESC'];
    if (q.after && q.page > 1) {
      throw AppError.validation([{ field: 'after', message: 'takes no page; a cursor names its own' }]);
    }
    const after = q.after ? this.cursors.read(type.name, q.after, sort, order) : null;
    const page = { type, fields, where, values: params.values, sort, order, pageSize: q.pageSize };
    // The page walks the sort index and stops after it; the total is its own (index-only) count.
    const [rows, total] = await Promise.all([
      this.records.page({ ...page, offset: after ? 0 : (q.page - 1) * q.pageSize, after }),
      this.records.count(type, where, params.values),
    ]);
    const last = rows[rows.length - 1];
    const nextCursor =
      rows.length === q.pageSize
        ? this.cursors.make(type.name, {
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
    if (!o.cursors) return answer;
    return {
      ...answer,
      meta: { pagination: { ...answer.meta.pagination, ...(after ? { page: null } : {}), nextCursor } },
    };
  }

  /** Counts, sums, averages, minima and maxima of the records a filter selects, grouped or not. */
  async aggregate(type: RecordType, principal: Principal, body: unknown, relations = NO_RELATIONS) {
    const plan = planAggregate(type, body);
    const params = new Params();
    const where = this.where(type, principal, params, { filter: plan.filter, relations, cursors: false });
    const rows = await this.records.aggregate(type, plan, where, params.values);
    return { data: aggregateRows(plan, rows) };
  }

  async count(type: RecordType, principal: Principal, o: Omit<ListOptions, 'cursors'> = {}) {
    const params = new Params();
    const where = this.where(type, principal, params, { ...o, cursors: false });
    return { data: { count: await this.records.count(type, where, params.values) } };
  }

  /** One record within the company `limit`, else 404 `"<label> not found"`. */
  async one(type: RecordType, id: number, limit: number | null, label = 'Record'): Promise<EngineRecord> {
    const row: RecordRow | null = await this.records.one(type, id, limit);
    if (!row) throw AppError.notFound(label);
    return toRecord(type, row);
  }

  /** The conditions of a read: the filter, the equalities, the type's own, soft deletion, company. */
  private where(type: RecordType, principal: Principal, params: Params, o: ListOptions): string[] {
    const filter = filterSql({ type, ...(o.relations ?? NO_RELATIONS) }, o.filter, params);
    const where = filter ? [filter] : [];
    for (const [name, value] of Object.entries(o.equals ?? {})) {
      if (value === undefined || value === null) continue;
      const target = queryableField(type, name);
      if (!target) throw new Error(`${type.name} has no field ${name}`);
      const sql = fieldCondition('t', target, '$eq', value, params);
      if (typeof sql !== 'string') throw AppError.validation([{ field: name, message: sql.message }]);
      where.push(sql);
    }
    where.push(...(o.conditions?.(params) ?? []));
    if (type.softDeleted) where.push('t."deleted_at" IS NULL');
    where.push(...limitCondition(companyLimit(type, principal), params));
    return where;
  }
}
