import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { pgPoolOf } from '../database/pg-pool';
import { PRODUCTION_SCHEMA, TenantClient, tenantContext } from './tenant-context';
import { TenantDataSources } from './tenant-data-sources';

/**
 * What features use to reach the current tenant's data. Production work runs on the pool as it is
 * (its connections start with search_path=public, so no extra round trip); sandbox work runs in a
 * transaction whose first statement sets a transaction-local search_path, which ends with it and
 * never leaks to the next borrower of the connection.
 */
@Injectable()
export class TenantDatabase {
  constructor(private readonly dataSources: TenantDataSources) {}

  dataSource(): Promise<DataSource> {
    return this.dataSources.current();
  }

  /**
   * A client's database whatever the current context: for work that spans tenants (relays,
   * sweepers, buffered writes) or runs before the tenant is entered (token and login lookups).
   */
  forClient(client: TenantClient): Promise<DataSource> {
    return this.dataSources.forClient(client);
  }

  /** Runs `work` with a manager bound to the tenant's schema; a transaction only for sandboxes. */
  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const { schema } = tenantContext.get();
    const dataSource = await this.dataSources.current();
    if (schema === PRODUCTION_SCHEMA) return work(dataSource.manager);
    return this.inTransaction(dataSource, schema, work);
  }

  /** Runs `work` in one transaction bound to the tenant's schema. */
  async transaction<T>(work: (manager: EntityManager) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    const { schema } = tenantContext.get();
    const dataSource = await this.dataSources.current();
    return this.inTransaction(dataSource, schema, work, isolation);
  }

  /**
   * One read-only statement in the tenant's schema, returning its rows. In production it goes straight
   * to the pg pool (no ORM query runner on the hot path of list endpoints); in a sandbox it runs in
   * the schema-bound transaction like everything else.
   */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const { schema } = tenantContext.get();
    const dataSource = await this.dataSources.current();
    if (schema !== PRODUCTION_SCHEMA)
      return this.inTransaction(dataSource, schema, (m) => m.query(sql, params));
    const result = await pgPoolOf(dataSource)!.query(sql, params);
    return result.rows as T[];
  }

  /** Identity tables live only in `public`; reach them the same way in production and sandboxes. */
  async production<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const dataSource = await this.dataSources.current();
    return work(dataSource.manager);
  }

  private inTransaction<T>(
    dataSource: DataSource,
    schema: string,
    work: (manager: EntityManager) => Promise<T>,
    isolation?: IsolationLevel,
  ) {
    const bound = async (manager: EntityManager) => {
      if (schema !== PRODUCTION_SCHEMA) {
        await manager.query(`SELECT set_config('search_path', $1, true)`, [`"${schema}", public`]);
      }
      return work(manager);
    };
    // TypeORM sends SET TRANSACTION as a statement of its own: only pay it when a level is asked for.
    return isolation ? dataSource.transaction(isolation, bound) : dataSource.transaction(bound);
  }
}
