import { Injectable, Logger } from '@nestjs/common';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { migrationName } from '../database/migration-runner';
import { ClientDatabases } from '../tenancy/client-databases';
import { Client } from '../tenancy/entities/client.entity';
import { MigratingClients } from '../tenancy/migrating-clients';
import { ClientsRepository } from '../tenancy/clients.repository';
import { ClientMigrationMetrics } from './client-migration-metrics';
import { ClientMoveLock } from './client-move-lock';
import { MigratedVersions } from './migrated-versions';

const NEWEST = migrationName(CLIENT_MIGRATIONS[CLIENT_MIGRATIONS.length - 1]);

/**
 * Migrates one client database. A current one costs one cheap check; one that is behind answers
 * 503 CLIENT_MIGRATING in this process while its migrations run.
 *
 * A migration and a move of the same client never overlap (ClientMoveLock): one that is behind, or
 * moving, is migrated holding the client's lock, so it waits for a move in progress (`onWait` is
 * told once) and then migrates the database where the move left it, read again from the master.
 */
@Injectable()
export class ClientMigrator {
  private readonly logger = new Logger(ClientMigrator.name);

  constructor(
    private readonly databases: ClientDatabases,
    private readonly migrating: MigratingClients,
    private readonly metrics: ClientMigrationMetrics,
    private readonly versions: MigratedVersions,
    private readonly clients: ClientsRepository,
    private readonly lock: ClientMoveLock,
  ) {}

  /** Returns the migrations it ran; throws (and counts the failure) when the migration fails. */
  async migrate(client: Client, onWait?: () => Promise<void>): Promise<string[]> {
    // Already refused for a reason of its own (start-up): that owner lets it go.
    const held = this.migrating.has(client.id);
    try {
      let ran: string[] = [];
      if (client.movingToServerId || (await this.databases.schemasBehind(client)).length) {
        ran = await this.lock.hold(client.id, () => this.migrateHeld(client), onWait);
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

  /** Under the client's lock: where the database is now (a move may just have ended), and what it lacks. */
  private async migrateHeld(known: Client): Promise<string[]> {
    const client = (await this.clients.byId(known.id)) ?? known;
    if (!(await this.databases.schemasBehind(client)).length) return [];
    this.migrating.add(client.id);
    return this.databases.migrate(client);
  }
}
