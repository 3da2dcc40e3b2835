import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { quoteIdent } from '../database/identifiers';
import { SqlExample } from '../database/sql-example';
import { EXAMPLE_TYPE } from './engine/example-type';
import { Params } from './engine/params';
import { RecordType } from './engine/record-type';
import { selectList } from './engine/select';
import { limitCondition } from './engine/record-engine';
import { RecordRow } from './record-query.repository';

/** Checked values of a write by field name (many relations as id arrays, multiple media as JSON text). */
export type FieldValues = Record<string, unknown>;

const VALUES: FieldValues = { name: 'GT-1', capacityMw: 120.5 };

/**
 * The record engine's writes of records described at runtime (custom tables): inserts, updates,
 * deletes, publication moves and the join-table rows of many relations, in the caller's
 * transaction. Values are parameters cast to their column's type; identifiers come checked and quoted.
 */
@Injectable()
export class RecordWriteRepository {
  /** Inserts a record by `userId` (in `company` for a company-scoped type); answers its id. */
  @SqlExample((c) => [c.manager, EXAMPLE_TYPE, VALUES, 1, 7])
  async insert(
    m: EntityManager,
    type: RecordType,
    values: FieldValues,
    userId: number,
    company: number | null,
  ): Promise<number> {
    const params = new Params();
    const columns = ['"created_by_id"', '"updated_by_id"'];
    const placeholders = [params.add(userId), params.add(userId)];
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
    const [{ id }] = await m.query<{ id: string | number }[]>(
      `INSERT INTO ${quoteIdent(type.table)} (${columns.join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING id`,
      params.values,
    );
    return Number(id);
  }

  /** Sets the values of a record, stamped with `updated_at` and `userId`. */
  @SqlExample((c) => [c.manager, EXAMPLE_TYPE, 1, VALUES, 1])
  async update(
    m: EntityManager,
    type: RecordType,
    id: number,
    values: FieldValues,
    userId: number,
  ): Promise<void> {
    const params = new Params();
    const sets = [`"updated_at" = now()`, `"updated_by_id" = ${params.add(userId)}`];
    for (const [name, value] of Object.entries(values)) {
      const field = type.fields.get(name)!;
      if (!field.joinTable) sets.push(`${quoteIdent(field.column)} = ${params.add(value, field.sqlType!)}`);
    }
    await m.query(
      `UPDATE ${quoteIdent(type.table)} SET ${sets.join(', ')} WHERE id = ${params.add(id)}`,
      params.values,
    );
  }

  /** The join-table rows of a record's many relations (the old ones first dropped when `replace`). */
  @SqlExample((c) => [c.manager, EXAMPLE_TYPE, 1, VALUES, true])
  async writeLinks(m: EntityManager, type: RecordType, id: number, values: FieldValues, replace = false) {
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

  /** The value of one field of a record within the company `limit`, locked; undefined when there is none. */
  @SqlExample((c) => [c.manager, EXAMPLE_TYPE, 1, 'name', 7])
  async lockedValue(
    m: EntityManager,
    type: RecordType,
    id: number,
    fieldName: string,
    limit: number | null,
  ): Promise<{ value: unknown } | undefined> {
    const field = type.fields.get(fieldName)!;
    const params = new Params();
    const where = [`t.id = ${params.add(id)}`, ...limitCondition(limit, params)];
    const [current] = await m.query<{ value: unknown }[]>(
      `SELECT t.${quoteIdent(field.column)} AS value FROM ${quoteIdent(type.table)} t WHERE ${where.join(' AND ')} FOR UPDATE`,
      params.values,
    );
    return current;
  }

  /** Which of `ids` name records of the table within the company `limit`. */
  @SqlExample((c) => [c.manager, 'units', [1, 2], 7])
  async existing(m: EntityManager, table: string, ids: number[], limit: number | null): Promise<unknown[]> {
    const params = new Params();
    const where = [`t.id = ANY(${params.add(ids, 'bigint[]')})`, ...limitCondition(limit, params)];
    const rows = await m.query<{ id: unknown }[]>(
      `SELECT t.id FROM ${quoteIdent(table)} t WHERE ${where.join(' AND ')}`,
      params.values,
    );
    return rows.map((r) => r.id);
  }

  @SqlExample((c) => [c.manager, EXAMPLE_TYPE, 1])
  async remove(m: EntityManager, type: RecordType, id: number): Promise<void> {
    await m.query(`DELETE FROM ${quoteIdent(type.table)} WHERE id = $1`, [id]);
  }

  /** Locks and deletes the records of `ids` within the company `limit`; answers the rows deleted. */
  @SqlExample((c) => [c.manager, EXAMPLE_TYPE, [1, 2], 7])
  async removeMany(
    m: EntityManager,
    type: RecordType,
    ids: number[],
    limit: number | null,
  ): Promise<RecordRow[]> {
    const params = new Params();
    const where = [`t.id = ANY(${params.add(ids, 'bigint[]')})`, ...limitCondition(limit, params)];
    const rows = await m.query<RecordRow[]>(
      `SELECT ${selectList(type)} FROM ${quoteIdent(type.table)} t WHERE ${where.join(' AND ')} FOR UPDATE`,
      params.values,
    );
    if (rows.length) {
      await m.query(`DELETE FROM ${quoteIdent(type.table)} WHERE id = ANY($1::bigint[])`, [
        rows.map((row) => row.id),
      ]);
    }
    return rows;
  }

  /** Publishes a draft by `userId`, or returns a published record to draft (`userId` null). */
  @SqlExample((c) => [c.manager, EXAMPLE_TYPE, 1, 1])
  @SqlExample((c) => [c.manager, EXAMPLE_TYPE, 1, null])
  async setPublication(m: EntityManager, type: RecordType, id: number, userId: number | null): Promise<void> {
    const sets =
      userId !== null
        ? `"publication_status" = 'PUBLISHED', "published_at" = now(), "published_by_id" = $2`
        : `"publication_status" = 'DRAFT', "published_at" = NULL, "published_by_id" = NULL`;
    await m.query(
      `UPDATE ${quoteIdent(type.table)} SET ${sets}, "updated_at" = now() WHERE id = $1`,
      userId !== null ? [id, userId] : [id],
    );
  }
}
