import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import { PRODUCTION_SCHEMA, tenantContext } from './tenant-context';
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

  /** Runs `work` with a manager bound to the tenant's schema; a transaction only for sandboxes. */
  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const { schema } = tenantContext.get();
    const dataSource = await this.dataSources.current();
    if (schema === PRODUCTION_SCHEMA) return work(dataSource.manager);
    return this.inTransaction(dataSource, schema, work);
  }

  /** Runs `work` in one transaction bound to the tenant's schema. */
  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const { schema } = tenantContext.get();
    const dataSource = await this.dataSources.current();
    return this.inTransaction(dataSource, schema, work);
  }

  /** Shortcut for a repository call in the tenant's schema. */
  repo<E extends ObjectLiteral, T>(
    entity: EntityTarget<E>,
    work: (repo: Repository<E>) => Promise<T>,
  ): Promise<T> {
    return this.run((manager) => work(manager.getRepository(entity)));
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
  ) {
    return dataSource.transaction(async (manager) => {
      if (schema !== PRODUCTION_SCHEMA) {
        await manager.query(`SELECT set_config('search_path', $1, true)`, [`"${schema}", public`]);
      }
      return work(manager);
    });
  }
}
