import { Injectable } from '@nestjs/common';
import { TenantDataSources } from './tenant-data-sources';

/** A client pool this process holds open, with a probe of its database. */
export interface OpenPool {
  identifier: string;
  /** `{ state: 'opening' }` while the pool is still being opened; throws when the database fails. */
  ping(): Promise<{ state: 'opening' } | void>;
}

/**
 * What operations (health, metrics, background passes, client administration) may know of the
 * connection pools, without reaching a pool or a DataSource.
 */
@Injectable()
export class TenantPools {
  constructor(private readonly dataSources: TenantDataSources) {}

  /** Identifiers of the clients whose pool is open (or opening) here. */
  openClients(): string[] {
    return this.dataSources.openPools().map((p) => p.identifier);
  }

  openCount(): number {
    return this.dataSources.openPools().length;
  }

  /** Connections the client pools hold right now. */
  connectionCount(): number {
    return this.dataSources.connectionCount();
  }

  open(): OpenPool[] {
    return this.dataSources.openPools().map(({ identifier, dataSource }) => ({
      identifier,
      ping: async () => {
        if (!dataSource) return { state: 'opening' as const };
        await dataSource.query('SELECT 1');
      },
    }));
  }

  /** One round trip to the master database. */
  async pingMaster(): Promise<void> {
    await this.dataSources.master.query('SELECT 1');
  }

  /** Closes a client's pool (suspended or deleted client); the next use opens it again. */
  close(identifier: string): Promise<void> {
    return this.dataSources.close(identifier);
  }
}
