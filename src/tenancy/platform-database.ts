import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { MASTER_DATA_SOURCE } from '../database/master-data-source';

/**
 * Transactions on the master database, for platform work that spans statements of its repositories
 * (ClientsRepository, DatabaseServersRepository, BackupsRepository). Tenant data of the master (it
 * is a tenant too) is reached like any other through TenantDatabase with MASTER_CLIENT; DDL on
 * client databases goes through src/database/ddl.ts.
 */
@Injectable()
export class PlatformDatabase {
  constructor(@Inject(MASTER_DATA_SOURCE) private readonly master: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.master.transaction(work);
  }
}
