import { Injectable, Logger } from '@nestjs/common';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { migrationName } from '../database/migration-runner';
import { ClientDatabases } from '../tenancy/client-databases';
import { Client } from '../tenancy/entities/client.entity';
import { MigratingClients } from '../tenancy/migrating-clients';
import { ClientMigrationMetrics } from './client-migration-metrics';
import { MigratedVersions } from './migrated-versions';

const NEWEST = migrationName(CLIENT_MIGRATIONS[CLIENT_MIGRATIONS.length - 1]);

/**
 * Migrates one client database. A current one costs one cheap check; one that is behind answers
 * 503 CLIENT_MIGRATING in this process while its migrations run.
 */
@Injectable()
export class ClientMigrator {
  private readonly logger = new Logger(ClientMigrator.name);

  constructor(
    private readonly databases: ClientDatabases,
    private readonly migrating: MigratingClients,
    private readonly metrics: ClientMigrationMetrics,
    private readonly versions: MigratedVersions,
  ) {}

  /** Returns the migrations it ran; throws (and counts the failure) when the migration fails. */
  async migrate(client: Client): Promise<string[]> {
    // Already refused for a reason of its own (start-up): that owner lets it go.
    const held = this.migrating.has(client.id);
    try {
      let ran: string[] = [];
      if ((await this.databases.schemasBehind(client)).length) {
        this.migrating.add(client.id);
        ran = await this.databases.migrate(client);
      }
      await this.versions.record(client.identifier, NEWEST).catch((err: Error) => {
        this.logger.warn(`Recording ${client.identifier}'s migration version: ${err.message}`);
      });
      return ran;
    } catch (err) {
      this.metrics.failures.inc();
      throw err;
    } finally {
      if (!held) this.migrating.delete(client.id);
    }
  }
}
