import { Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import { paged } from '../common/pagination/pagination';
import { quoteIdent } from '../database/ddl';
import { TenantDatabase } from '../tenancy/tenant-database';
import { companyCondition, companyLimit } from './cms-company-scope';
import { assertRelatedRead } from './cms-permissions';
import { readRecord, Row, scopedTo, statusCondition, withFreshType } from './cms-record-read';
import { Params, toRecord } from './cms-sql';
import { ContentTypeCache } from './content-type-cache';
import { CompiledType } from './content-type.types';
import { CmsListQueryDto } from './dto/cms-query.dto';
import { aggregateRows, aggregateStatement, planAggregate } from './query/cms-aggregate';
import { CmsCursors } from './query/cms-cursor';
import { chosenFields } from './query/cms-fields';
import { FilterScope, filterSql } from './query/cms-filter';
import { pageRows, SORT_TEXT } from './query/cms-page';

/** Reads of custom-table records: pages (by number or cursor), counts, aggregates, one record. */
@Injectable()
export class CmsRecordQueries {
  constructor(
    private readonly db: TenantDatabase,
    private readonly types: ContentTypeCache,
    private readonly cursors: CmsCursors,
  ) {}

  async list(principal: Principal, collection: string, q: CmsListQueryDto, filters?: unknown) {
    return withFreshType(this.types, collection, async (type) => {
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
    return withFreshType(this.types, collection, async (type) => {
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
   * The WHERE conditions of a filter body (none for an empty one). A filter through a relation needs
   * read on the target type (403 before any SQL otherwise) and sees only the target rows the caller
   * may see (their company's, for a company-scoped target).
   */
  private async filterOf(
    type: CompiledType,
    principal: Principal,
    filters: unknown,
    params: Params,
  ): Promise<string[]> {
    const scope: FilterScope = {
      type,
      types: await this.types.all(),
      assertReadable: (target, path) => assertRelatedRead(principal, target, path),
      targetVisibility: (target, alias, p) =>
        companyCondition(companyLimit(target, principal), p, alias)[0] ?? null,
    };
    const sql = filterSql(scope, filters, params);
    return sql ? [sql] : [];
  }

  async count(principal: Principal, collection: string, status?: 'draft' | 'published') {
    return withFreshType(this.types, collection, async (type) => {
      const params = new Params();
      const where = [
        ...statusCondition(type, status, params),
        ...companyCondition(companyLimit(type, principal), params),
      ];
      return { data: { count: await this.countWhere(type, where, params.values) } };
    });
  }

  async get(principal: Principal, collection: string, id: number) {
    return withFreshType(this.types, collection, async (type) => {
      return { data: await readRecord(this.db, type, id, companyLimit(type, principal)) };
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

  private async countWhere(type: CompiledType, where: string[], values: unknown[]): Promise<number> {
    const [row] = await this.db.query<{ count: string }>(
      `SELECT count(*) AS count FROM ${quoteIdent(type.table)} t ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
      values,
    );
    return Number(row.count);
  }
}
