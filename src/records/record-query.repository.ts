import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { companyCondition } from '../access/company-rule';
import { quoteIdent } from '../database/identifiers';
import { SqlExample } from '../database/sql-example';
import { TenantDatabase } from '../tenancy/tenant-database';
import { AggregatePlan, aggregateStatement } from './engine/aggregate';
import { EXAMPLE_TYPE } from './engine/example-type';
import { pageRows, PageQuery } from './engine/page';
import { Params } from './engine/params';
import { RecordType } from './engine/record-type';
import { selectList } from './engine/select';

/** A row of a record type's table under the JSON names of its fields. */
export type RecordRow = Record<string, unknown>;

const SCOPED = [companyCondition('t."company_id"', 1)];
const FILTERED = [
  companyCondition('t."company_id"', 1),
  '(t."status" = $2 OR t."capacity_mw" > $3::numeric)',
];
const AGGREGATE: AggregatePlan = {
  groups: [{ name: 'status', alias: 'g0', key: 't."status"', sql: 't."status"', bigint: false }],
  values: [
    { fn: 'count', name: '*', alias: 'a0', sql: 'count(*)' },
    { fn: 'sum', name: 'capacityMw', alias: 'a1', sql: 'sum(t."capacity_mw")::float8' },
  ],
  filter: undefined,
};
const page = (o: Partial<PageQuery>): PageQuery => ({
  type: EXAMPLE_TYPE,
  where: SCOPED,
  values: [7],
  sort: 'id',
  order: 'DESC',
  pageSize: 25,
  offset: 0,
  after: null,
  ...o,
});

/**
 * The record engine's statements, for every record type (built-in or custom): the type says
 * which table and columns; the conditions come compiled from the engine's filter language and the
 * company rule (`src/records/engine`), their values as parameters.
 */
@Injectable()
export class RecordQueryRepository {
  constructor(private readonly db: TenantDatabase) {}

  /** One page: by number (a deferred join past the first page) or after a cursor (keyset). */
  @SqlExample([page({})])
  @SqlExample([page({ offset: 50 })])
  @SqlExample([page({ where: FILTERED, values: [7, 'ACTIVE', 100], sort: 'capacityMw', order: 'ASC' })])
  @SqlExample([
    page({ sort: 'capacityMw', after: { sort: 'capacityMw', order: 'DESC', value: '120', id: 9 } }),
  ])
  @SqlExample([page({ fields: new Set(['id', 'name']) })])
  page(q: PageQuery): Promise<RecordRow[]> {
    return pageRows((sql, values) => this.db.query<RecordRow>(sql, values), q);
  }

  /** How many rows meet the conditions. */
  @SqlExample([EXAMPLE_TYPE, SCOPED, [7]])
  @SqlExample([EXAMPLE_TYPE, [], []])
  async count(type: RecordType, where: string[], values: unknown[]): Promise<number> {
    const [row] = await this.db.query<{ count: string }>(
      `SELECT count(*) AS count FROM ${quoteIdent(type.table)} t ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
      values,
    );
    return Number(row.count);
  }

  /** The rows of an aggregate plan (grouped or not) over the rows meeting the conditions. */
  @SqlExample([EXAMPLE_TYPE, AGGREGATE, SCOPED, [7]])
  @SqlExample([EXAMPLE_TYPE, { ...AGGREGATE, groups: [] }, FILTERED, [7, 'ACTIVE', 100]])
  aggregate(type: RecordType, plan: AggregatePlan, where: string[], values: unknown[]): Promise<RecordRow[]> {
    const params = new Params();
    params.values.push(...values);
    return this.db.query<RecordRow>(aggregateStatement(type, plan, where, params), params.values);
  }

  /**
   * One record by id within the company `limit` (null: any), read in the transaction `m` when
   * given (locked when `lock`); null when there is none.
   */
  @SqlExample([EXAMPLE_TYPE, 1, 7])
  @SqlExample((c) => [EXAMPLE_TYPE, 1, null, c.manager, true])
  async one(
    type: RecordType,
    id: number,
    limit: number | null,
    m?: EntityManager,
    lock = false,
  ): Promise<RecordRow | null> {
    const [where, values] = byId(id, limit);
    const sql = `SELECT ${selectList(type)} FROM ${quoteIdent(type.table)} t WHERE ${where}${lock ? ' FOR UPDATE' : ''}`;
    const rows: RecordRow[] = m ? await m.query(sql, values) : await this.db.query<RecordRow>(sql, values);
    return rows[0] ?? null;
  }

  /** Whether a record with this id exists within the company `limit` (null: any). */
  @SqlExample([EXAMPLE_TYPE, 1, 7])
  async exists(type: RecordType, id: number, limit: number | null): Promise<boolean> {
    const [where, values] = byId(id, limit);
    const rows = await this.db.query(`SELECT 1 FROM ${quoteIdent(type.table)} t WHERE ${where}`, values);
    return rows.length > 0;
  }
}

/** `t.id = $1`, and the company rule at `$2` for a limited caller. */
function byId(id: number, limit: number | null): [string, unknown[]] {
  if (limit === null) return ['t.id = $1', [id]];
  return [`t.id = $1 AND ${companyCondition('t."company_id"', 2)}`, [id, limit]];
}
