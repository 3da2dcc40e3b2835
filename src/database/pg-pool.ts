import { DataSource } from 'typeorm';

/** What the pg pool under a TypeORM postgres DataSource offers. */
export interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  query(sql: string, params: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * The pg pool under a DataSource, or undefined before it is initialised. TypeORM keeps it in the
 * driver's private `master` field: this is the only place that reaches it.
 */
export function pgPoolOf(dataSource: DataSource | undefined): PgPool | undefined {
  return (dataSource?.driver as unknown as { master?: PgPool } | undefined)?.master;
}
