import { Injectable } from '@nestjs/common';
import { withAdminConnection } from '../database/data-source-factory';
import { quoteIdent, quoteLiteral } from '../database/ddl';
import { ClientDatabases } from '../tenancy/client-databases';
import { Client } from '../tenancy/entities/client.entity';

/** Longest PostgreSQL identifier. */
const NAME_MAX = 63;

/** The databases and roles a restore creates, fills and drops, over the server's administrative login. */
@Injectable()
export class RestoreDatabases {
  constructor(private readonly databases: ClientDatabases) {}

  /** A fresh database name for the client: its base name (that of its login role) and a random tail. */
  freshName(client: Client, tail: string): string {
    return `${client.databaseUsername.slice(0, NAME_MAX - tail.length - 2)}_r${tail}`;
  }

  /** The client's login role (created when missing, with this password when given) and an empty database. */
  async create(client: Client, database: string, password?: string): Promise<void> {
    const role = quoteIdent(client.databaseUsername);
    const db = quoteIdent(database);
    await withAdminConnection(await this.databases.adminTarget(client, 'postgres'), async (pg) => {
      if (password !== undefined) {
        const { rowCount } = await pg.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [
          client.databaseUsername,
        ]);
        if (!rowCount) await pg.query(`CREATE ROLE ${role} LOGIN`);
        await pg.query(`ALTER ROLE ${role} WITH LOGIN PASSWORD ${quoteLiteral(password)}`);
      }
      await pg.query(`CREATE DATABASE ${db}`);
      await pg.query(`REVOKE ALL ON DATABASE ${db} FROM PUBLIC`);
      await pg.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${db} TO ${role}`);
    });
  }

  /** Drops one database by name (its sessions ended), and the client's role when asked. */
  async drop(client: Client, database: string, dropRole = false): Promise<void> {
    await withAdminConnection(await this.databases.adminTarget(client, 'postgres'), async (pg) => {
      await pg.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
      if (dropRole) await pg.query(`DROP ROLE IF EXISTS ${quoteIdent(client.databaseUsername)}`);
    });
  }

  /**
   * The events and webhook deliveries the backup held were handed on (or due to be) by the database
   * the backup was taken from: the restored copy does not send them again.
   */
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
