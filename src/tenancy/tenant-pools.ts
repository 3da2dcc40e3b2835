import { Injectable } from '@nestjs/common';
import type { Metric } from 'prom-client';
import { ServerAdminRepository } from '../database/server-admin.repository';
import { TenantDataSources } from './tenant-data-sources';

/** A client database this process holds connections to, with a probe of it. */
export interface OpenPool {
  identifier: string;
  /** Throws when the database fails. (`{ state: 'opening' }` is no longer answered: opening costs nothing.) */
  ping(): Promise<{ state: 'opening' } | void>;
}

/**
 * What operations (health, metrics, background passes, client administration) may know of the
 * connection pools, without reaching a pool or a DataSource.
 */
@Injectable()
export class TenantPools {
  constructor(
    private readonly dataSources: TenantDataSources,
    private readonly serverAdmin: ServerAdminRepository,
  ) {}

  /** Identifiers of the clients holding (or waiting for) a connection here. */
  openClients(): string[] {
    return this.dataSources.openPools().map((p) => p.identifier);
  }

  openCount(): number {
    return this.dataSources.openPools().length;
  }

  /** Client-database connections this process holds right now. */
  connectionCount(): number {
    return this.dataSources.connectionCount();
  }

  /** The tenant_connection* metrics, for the metrics registry. */
  metrics(): Metric[] {
    return this.dataSources.metrics.all();
  }

  open(): OpenPool[] {
    return this.dataSources.openPools().map(({ identifier, dataSource }) => ({
      identifier,
      ping: () => this.serverAdmin.ping(dataSource),
    }));
  }

  /** One round trip to the master database. */
  async pingMaster(): Promise<void> {
    await this.serverAdmin.ping(this.dataSources.master);
  }

  /** Closes a client's connections (suspended or deleted client); the next use opens them again. */
  close(identifier: string): Promise<void> {
    return this.dataSources.close(identifier);
  }
}
