import { Injectable } from '@nestjs/common';
import { ClientDatabases } from '../tenancy/client-databases';
import { Client } from '../tenancy/entities/client.entity';
import { MigratingClients } from '../tenancy/migrating-clients';
import { ClientMigrationMetrics } from './client-migration-metrics';

/**
 * Migrates one client database. A current one costs one cheap check; one that is behind answers
 * 503 CLIENT_MIGRATING in this process while its migrations run.
 */
@Injectable()
export class ClientMigrator {
  constructor(
    private readonly databases: ClientDatabases,
    private readonly migrating: MigratingClients,
    private readonly metrics: ClientMigrationMetrics,
  ) {}

  /** Returns the migrations it ran; throws (and counts the failure) when the migration fails. */
  async migrate(client: Client): Promise<string[]> {
    // Already refused for a reason of its own (start-up): that owner lets it go.
    const held = this.migrating.has(client.id);
    try {
      if (!(await this.databases.schemasBehind(client)).length) return [];
      this.migrating.add(client.id);
      return await this.databases.migrate(client);
    } catch (err) {
      this.metrics.failures.inc();
      throw err;
    } finally {
      if (!held) this.migrating.delete(client.id);
    }
  }
}
