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
