import { EntityManager } from 'typeorm';

/**
 * Rows of an UPDATE or DELETE ... RETURNING. TypeORM's query() answers those with
 * `[rows, rowCount]` instead of the rows, unlike SELECT and INSERT.
 */
export async function modifyReturning<T = Record<string, unknown>>(
  manager: EntityManager,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const [rows] = await manager.query(sql, params);
  return rows as T[];
}

/**
 * A timestamptz column read as the same ISO 8601 text `Date.toJSON` gives (UTC, milliseconds, `Z`).
 * List endpoints select it this way: formatting in PostgreSQL is far cheaper than parsing every
 * value into a Date in Node and formatting it again for the JSON body.
 */
export const isoTimestamp = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
