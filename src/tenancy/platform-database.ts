import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { MASTER_DATA_SOURCE } from '../database/master-data-source';
import { Client } from './entities/client.entity';
import { DatabaseServer } from './entities/database-server.entity';

/**
 * Platform administration's narrow view of the master database: the client registry table and
 * transactions for platform-wide seeding. Tenant data of the master (it is a tenant too) is reached
 * like any other through TenantDatabase with MASTER_CLIENT; DDL on client databases goes through
 * src/database/ddl.ts.
 */
@Injectable()
export class PlatformDatabase {
  constructor(@Inject(MASTER_DATA_SOURCE) private readonly master: DataSource) {}

  clients(): Repository<Client> {
    return this.master.getRepository(Client);
  }

  servers(): Repository<DatabaseServer> {
    return this.master.getRepository(DatabaseServer);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.master.transaction(work);
  }
}
