import { Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import {
  companyLimit,
  limitCondition,
  parseFilter,
  RecordEngine,
  RelationScope,
} from '../records/engine/record-engine';
import { RecordQueryRepository } from '../records/record-query.repository';
import { assertRelatedRead } from './cms-permissions';
import { readRecord, scopedTo, statusCondition, withFreshType } from './cms-record-read';
import { ContentTypeCache } from './content-type-cache';
import { CompiledType } from './content-type.types';
import { CmsListQueryDto } from './dto/cms-query.dto';

/** Reads of custom-table records through the record engine: pages (by number or cursor), counts, aggregates, one record. */
@Injectable()
export class CmsRecordQueries {
  constructor(
    private readonly engine: RecordEngine,
    private readonly records: RecordQueryRepository,
    private readonly types: ContentTypeCache,
  ) {}

  /** A list (`filter=`) or a search (its body, and-ed with `filter=` when both are given). */
  async list(principal: Principal, collection: string, q: CmsListQueryDto, body?: unknown) {
    const given = parseFilter(q.filter);
    const filter = body === undefined ? given : given === undefined ? body : { $and: [given, body] };
    return withFreshType(this.types, collection, async (type) =>
      this.engine.list(type, principal, q, {
        filter,
        conditions: (params) => statusCondition(type, q.status, params),
        relations: await this.relations(principal),
        cursors: true,
      }),
    );
  }

  /** Counts, sums, averages, minima and maxima of the records a filter selects, grouped or not. */
  async aggregate(principal: Principal, collection: string, body: unknown) {
    return withFreshType(this.types, collection, async (type) =>
      this.engine.aggregate(type, principal, body, await this.relations(principal)),
    );
  }

  async count(principal: Principal, collection: string, status?: 'draft' | 'published') {
    return withFreshType(this.types, collection, (type) =>
      this.engine.count(type, principal, { conditions: (params) => statusCondition(type, status, params) }),
    );
  }

  async get(principal: Principal, collection: string, id: number) {
    return withFreshType(this.types, collection, async (type) => {
      return { data: await readRecord(this.records, type, id, companyLimit(type, principal)) };
    });
  }

  /** Whether a record of the type exists (of `company`, for a company-scoped type). */
  exists(type: CompiledType, id: number, company: number): Promise<boolean> {
    return this.records.exists(type, id, scopedTo(type, company));
  }

  /**
   * A filter through a relation needs read on the target type (403 before any SQL otherwise) and
   * sees only the target rows the caller may see (their company's, for a company-scoped target).
   */
  private async relations(principal: Principal): Promise<RelationScope> {
    return {
      types: await this.types.all(),
      assertReadable: (target, path) => assertRelatedRead(principal, target as CompiledType, path),
      targetVisibility: (target, alias, p) =>
        limitCondition(companyLimit(target, principal), p, alias)[0] ?? null,
    };
  }
}
