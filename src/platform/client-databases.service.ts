import { Injectable, Logger } from '@nestjs/common';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { AppConfig } from '../config/app-config';
import {
  databaseExists,
  DbTarget,
  parseDatabaseUrl,
  quoteIdent,
  withAdminConnection,
} from '../database/data-source-factory';
import { migrationStatus, runMigrationSet } from '../database/migration-runner';
import { Client } from './entities/client.entity';

const SANDBOX_CREATION_LOCK = 7243102;

export interface MigrationReport {
  currentVersion: string | null;
  pendingCount: number;
  pendingVersions: string[];
}

/**
 * DDL on client databases, always over the platform's administrative credentials: the client's
 * own login role only reads and writes rows, so it cannot alter tables nor rewrite the audit log.
 */
@Injectable()
export class ClientDatabases {
  private readonly logger = new Logger(ClientDatabases.name);

  constructor(private readonly config: AppConfig) {}

  /** Creates the login role and the database when missing (idempotent), then migrates it. */
  async create(client: Client, password: string): Promise<void> {
    const admin = this.adminTarget(client, 'postgres');
    const role = quoteIdent(client.databaseUsername);
    await withAdminConnection(admin, async (pg) => {
      const { rowCount } = await pg.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [
        client.databaseUsername,
      ]);
      if (!rowCount) await pg.query(`CREATE ROLE ${role} LOGIN`);
      await pg.query(`ALTER ROLE ${role} WITH LOGIN PASSWORD ${literal(password)}`);
      if (!(await databaseExists(pg, client.databaseName))) {
        await pg.query(`CREATE DATABASE ${quoteIdent(client.databaseName)}`);
      }
      await pg.query(`REVOKE ALL ON DATABASE ${quoteIdent(client.databaseName)} FROM PUBLIC`);
      await pg.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${quoteIdent(client.databaseName)} TO ${role}`);
    });
    await this.migrate(client);
  }

  /** Applies pending client migrations to production and every sandbox schema. */
  async migrate(client: Client): Promise<string[]> {
    const target = this.adminTarget(client);
    const schemas = await this.schemas(client);
    const ran: string[] = [];
    for (const schema of schemas) {
      ran.push(...(await runMigrationSet(target, CLIENT_MIGRATIONS, { schema })));
      await this.grant(client, schema);
    }
    if (ran.length) this.logger.log(`${client.identifier}: ran ${ran.length} migration(s)`);
    return ran;
  }

  async status(client: Client): Promise<MigrationReport> {
    const { currentVersion, pendingVersions } = await migrationStatus(
      this.adminTarget(client),
      CLIENT_MIGRATIONS,
    );
    return { currentVersion, pendingCount: pendingVersions.length, pendingVersions };
  }

  /** Creates and migrates a sandbox schema, granting the client's role the same rights as in production. */
  async createSchema(client: Client | null, schema: string): Promise<void> {
    const target = this.sandboxTarget(client);
    await runMigrationSet(target, CLIENT_MIGRATIONS, { schema });
    if (client) await this.grant(client, schema);
  }

  async dropSchema(client: Client | null, schema: string): Promise<void> {
    const target = this.sandboxTarget(client);
    await withAdminConnection(target, (pg) =>
      pg.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`),
    );
  }

  /** Copies production rows of every per-schema table (audit trail excluded) into a sandbox schema. */
  async copyProduction(client: Client | null, schema: string): Promise<void> {
    const target = this.sandboxTarget(client);
    const s = quoteIdent(schema);
    await withAdminConnection(target, async (pg) => {
      const { rows: tables } = await pg.query(
        `SELECT table_name FROM information_schema.tables
          WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name NOT IN ('migrations', 'audit_logs')`,
        [schema],
      );
      await pg.query('BEGIN');
      try {
        await pg.query(`SET LOCAL session_replication_role = replica`); // copy in any order, no FK/trigger checks
        for (const { table_name: table } of tables) {
          const t = quoteIdent(table);
          const { rows: columns } = await pg.query(
            `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2
             AND is_generated = 'NEVER' ORDER BY ordinal_position`,
            [schema, table],
          );
          const list = columns.map((c: { column_name: string }) => quoteIdent(c.column_name)).join(', ');
          await pg.query(`INSERT INTO ${s}.${t} (${list}) SELECT ${list} FROM public.${t}`);
          const { rows: serials } = await pg.query(
            `SELECT column_name, pg_get_serial_sequence($1, column_name) AS seq FROM information_schema.columns
              WHERE table_schema = $2 AND table_name = $3 AND column_default LIKE 'nextval%'`,
            [`${schema}.${table}`, schema, table],
          );
          for (const { column_name: column, seq } of serials) {
            if (!seq) continue;
            await pg.query(
              `SELECT setval($1, GREATEST(COALESCE((SELECT max(${quoteIdent(column)}) FROM ${s}.${t}), 0), 1))`,
              [seq],
            );
          }
        }
        await pg.query('COMMIT');
      } catch (err) {
        await pg.query('ROLLBACK');
        throw err;
      }
    });
  }

  /**
   * Runs `work` holding the database's sandbox-creation lock: a session advisory lock on an
   * administrative connection of its own, so it serialises creations across replicas without
   * taking a connection from the client's bounded pool.
   */
  async withSandboxCreationLock<T>(client: Client | null, work: () => Promise<T>): Promise<T> {
    const target = this.sandboxTarget(client);
    return withAdminConnection(target, async (pg) => {
      await pg.query('SELECT pg_advisory_lock($1)', [SANDBOX_CREATION_LOCK]);
      try {
        return await work();
      } finally {
        await pg.query('SELECT pg_advisory_unlock($1)', [SANDBOX_CREATION_LOCK]).catch(() => undefined);
      }
    });
  }

  /** A short-lived administrative connection to the client's database (used by audit retention). */
  asAdmin<T>(client: Client, fn: (pg: import('pg').Client) => Promise<T>): Promise<T> {
    return withAdminConnection(this.adminTarget(client), fn);
  }

  private async grant(client: Client, schema: string) {
    const role = quoteIdent(client.databaseUsername);
    const s = quoteIdent(schema);
    await withAdminConnection(this.adminTarget(client), async (pg) => {
      await pg.query(`GRANT USAGE ON SCHEMA ${s} TO ${role}`);
      await pg.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${role}`);
      await pg.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${role}`);
      // The audit trail is append-only for the application.
      await pg.query(`REVOKE UPDATE, DELETE, TRUNCATE ON ${s}.audit_logs FROM ${role}`);
    });
  }

  private async schemas(client: Client): Promise<string[]> {
    const exists = await withAdminConnection(this.adminTarget(client, 'postgres'), (pg) =>
      databaseExists(pg, client.databaseName),
    );
    if (!exists) return ['public'];
    return withAdminConnection(this.adminTarget(client), async (pg) => {
      const { rows } = await pg.query(
        `SELECT nspname FROM pg_namespace WHERE nspname LIKE 'sandbox\\_%' ORDER BY nspname`,
      );
      return ['public', ...rows.map((r: { nspname: string }) => r.nspname)];
    });
  }

  /** The client's server, reached with the platform's administrative login. */
  /** Where sandbox schemas live: the client's database, or the master one when multi-tenancy is off. */
  private sandboxTarget(client: Client | null): DbTarget {
    return client ? this.adminTarget(client) : parseDatabaseUrl(this.config.DATABASE_URL);
  }

  private adminTarget(client: Client, database = client.databaseName): DbTarget {
    const admin = parseDatabaseUrl(this.config.DATABASE_URL);
    return {
      host: client.databaseHost,
      port: client.databasePort,
      database,
      username: admin.username,
      password: admin.password,
    };
  }
}

function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
