import { Injectable } from '@nestjs/common';
import { DeepPartial, EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { TenantDatabase } from '../tenancy/tenant-database';
import { asksEngine } from './engine-query';
import { parseFilter, RecordEngine } from './engine/record-engine';
import { RecordType } from './engine/record-type';
import { findScoped } from './find-scoped';
import { recordRows } from './records.repository';
import { RecordChanges, RecordKind, ScopedRecord } from './record-changes';
import { SortedPage } from './sorted-page-query';
import { MoveTable } from './transitions';

/**
 * What every company-scoped resource answers the same way: get, delete and named moves, plus the
 * audited insert and update its own `create` and `update` use. A resource's service extends it
 * with its `kind` (no constructor needed) and writes only what is its own (references, derived fields, filters).
 */
@Injectable()
export abstract class RecordsService<E extends ScopedRecord> {
  protected abstract readonly kind: RecordKind<E>;
  /** How the record engine reads the type (`<feature>.record-type.ts`). */
  protected abstract readonly type: RecordType;

  constructor(
    protected readonly db: TenantDatabase,
    protected readonly changes: RecordChanges,
    protected readonly engine: RecordEngine,
  ) {}

  /**
   * A page of the type through the record engine: the query's order, its `filter`, `fields` and
   * `after`, the resource's own equality filters (undefined ones ignored), the caller's company.
   */
  protected listRecords(principal: Principal, q: SortedPage, equals: Record<string, unknown> = {}) {
    return this.engine.list(this.type, principal, q, {
      filter: parseFilter(q.filter),
      equals,
      cursors: asksEngine(q),
    });
  }

  /** `{ data: { count } }` of the records the caller sees (with the resource's equality filters). */
  protected countRecords(principal: Principal, equals: Record<string, unknown> = {}) {
    return this.engine.count(this.type, principal, { equals });
  }

  /** Counts, sums, averages, minima and maxima of the records a filter selects (`POST .../aggregate`). */
  aggregate(principal: Principal, body: unknown) {
    return this.engine.aggregate(this.type, principal, body);
  }

  async get(principal: Principal, id: number): Promise<{ data: E }> {
    return { data: await this.db.run((m) => this.find(m, principal, id)) };
  }

  async remove(principal: Principal, id: number): Promise<void> {
    await this.db.transaction(async (m) => {
      const record = await this.find(m, principal, id, true);
      await this.beforeRemove(m, record);
      await this.changes.removed(m, this.kind, record);
    });
  }

  /** A named move of `table` in one transaction with its audit entry and event. */
  async move<I>(principal: Principal, id: number, table: MoveTable<E>, name: string, input?: I) {
    const data = await this.db.transaction((m) =>
      this.changes.move(m, this.kind, table, name, { principal, id, input }),
    );
    return { data };
  }

  /** A check before a delete (e.g. 409 while other records use it). */
  protected async beforeRemove(_m: EntityManager, _record: E): Promise<void> {}

  protected find(m: EntityManager, principal: Principal, id: number, lock = false): Promise<E> {
    return findScoped(m, this.kind.entity, this.kind.label, principal, id, lock);
  }

  protected async insert(m: EntityManager, values: DeepPartial<E>, message?: string): Promise<E> {
    // Columns a read never shows (deletedAt, bookkeeping) stay out of the answer and the event too.
    const record = await recordRows.insert(m, this.kind.entity, values);
    await this.changes.created(m, this.kind, record, message);
    return record;
  }

  /** Locks the record, lets `change` build its next state, saves it and records what differs. */
  protected async change(
    principal: Principal,
    id: number,
    change: (m: EntityManager, before: E) => Promise<E> | E,
  ): Promise<{ data: E }> {
    const data = await this.db.transaction(async (m) => {
      const before = await this.find(m, principal, id, true);
      const after = await recordRows.save(m, this.kind.entity, await change(m, before));
      await this.changes.updated(m, this.kind, before, after);
      return after;
    });
    return { data };
  }
}
