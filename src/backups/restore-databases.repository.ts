import { Injectable } from '@nestjs/common';
import { withAdminConnection } from '../database/data-source-factory';
import { ServerAdminRepository } from '../database/server-admin.repository';
import { SqlNotRun } from '../database/sql-example';
import { ClientDatabases } from '../tenancy/client-databases';
import { Client } from '../tenancy/entities/client.entity';

/** Longest PostgreSQL identifier. */
const NAME_MAX = 63;

/**
 * A fresh database name for the client: `_`, its base name (that of its login role), `_r` and a
 * random tail. The leading underscore keeps it apart from every name provisioning derives from an
 * identifier (those start with a letter), so no client created later is handed it.
 */
export function freshDatabaseName(client: Client, tail: string): string {
  return `_${client.databaseUsername.slice(0, NAME_MAX - tail.length - 3)}_r${tail}`;
}

/** The databases and roles a restore creates, fills and drops, over the server's administrative login. */
@Injectable()
export class RestoreDatabasesRepository {
  constructor(
    private readonly databases: ClientDatabases,
    private readonly serverAdmin: ServerAdminRepository,
  ) {}

  /**
   * An empty database `database` the client's login role may use. With a password (a new client),
   * the login role is created too, and a role or database of those names already on the server
   * refuses the whole step before anything is made: a restore never takes over, nor later drops,
   * what it did not create. `onCreated` is called once something is the restore's own.
   */
  @SqlNotRun("creates a login role and a database on the client's server")
  async create(client: Client, database: string, password?: string, onCreated = () => {}): Promise<void> {
    await withAdminConnection(await this.databases.adminTarget(client, 'postgres'), async (pg) => {
      if (await this.serverAdmin.databaseExists(pg, database))
        throw new ExistsOnServer(`database ${database}`);
      if (password !== undefined) {
        if (await this.serverAdmin.roleExists(pg, client.databaseUsername)) {
          throw new ExistsOnServer(`login role ${client.databaseUsername}`);
        }
        await this.serverAdmin.createLoginRole(pg, client.databaseUsername, password);
        onCreated();
      }
      await this.serverAdmin.createDatabase(pg, database);
      onCreated();
      await this.serverAdmin.restrictDatabaseTo(pg, database, client.databaseUsername);
    });
  }

  /** Drops one database by name (its sessions ended), and the client's role when asked. */
  @SqlNotRun("drops a database (and a login role) on the client's server")
  async drop(client: Client, database: string, dropRole = false): Promise<void> {
    await withAdminConnection(await this.databases.adminTarget(client, 'postgres'), async (pg) => {
      await this.serverAdmin.dropDatabase(pg, database);
      if (dropRole) await this.serverAdmin.dropRole(pg, client.databaseUsername);
    });
  }

  /**
   * The events and webhook deliveries the backup held were handed on (or due to be) by the database
   * the backup was taken from: the restored copy does not send them again.
   */
  @SqlNotRun("empties the outbox of a restored client database, over the server's administrative login")
  async silenceOutbox(client: Client): Promise<void> {
    await this.databases.asAdmin(client, async (pg) => {
      await pg.query('DELETE FROM public.event_outbox');
      await pg.query(
        `UPDATE public.webhook_deliveries
            SET status = 'FAILED', next_attempt_at = NULL, completed_at = now(),
                error_message = 'Not sent: restored from a backup'
          WHERE status IN ('PENDING', 'RETRYING')`,
      );
    });
  }
}

/** A name a restore wanted is taken on the server by something it did not create. */
export class ExistsOnServer extends Error {
  constructor(what: string) {
    super(`The server has a ${what} already; nothing was changed`);
  }
}
