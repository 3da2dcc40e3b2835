import { Injectable } from '@nestjs/common';
import type { Client as PgClient } from 'pg';
import type { DataSource } from 'typeorm';
import { DbTarget, withAdminConnection } from './data-source-factory';
import { quoteIdent, quoteLiteral } from './identifiers';
import { SqlExample, SqlNotRun } from './sql-example';

/**
 * What a PostgreSQL server is, whatever name or address reaches it: its cluster's system
 * identifier (fixed at initdb) and the port it listens on (copies of one data directory share the
 * identifier). Two host names, an IP or a pooler in front of one server all answer the same.
 */
export interface ServerIdentity {
  systemIdentifier: string;
  clusterPort: number;
}

/** A server's identity and whether it runs with wal_level = logical (can take part in an online move). */
export interface ServerFacts extends ServerIdentity {
  logicalReplication: boolean;
}

/** What a server holds right now: the size of the databases asked about, and its open sessions. */
export interface ServerUsage {
  totalSizeBytes: number;
  connections: number;
}

export interface DatabaseSession {
  pid: number;
  idle: boolean;
}

/** An unreachable server answers within this, so a registration or a move does not hang on it. */
const IDENTITY_CONNECT_TIMEOUT_MS = 5_000;

const ON_ANOTHER_SERVER = "runs over an administrative connection to a client's database server";

/**
 * Statements on a PostgreSQL server over its administrative login (a `pg` client the caller opened
 * with withAdminConnection): databases, login roles, sessions, advisory locks of a connection.
 * Names are quoted here; callers pass them as they are.
 */
@Injectable()
export class ServerAdminRepository {
  /** One round trip: the database answers. */
  @SqlExample((c) => [c.manager.connection])
  async ping(dataSource: DataSource): Promise<void> {
    await dataSource.query('SELECT 1');
  }

  @SqlNotRun(ON_ANOTHER_SERVER)
  async identity(admin: PgClient): Promise<ServerIdentity> {
    const { rows } = await admin.query<{ id: string; port: string }>(
      `SELECT system_identifier::text AS id, current_setting('port') AS port FROM pg_control_system()`,
    );
    return { systemIdentifier: rows[0].id, clusterPort: Number(rows[0].port) };
  }

  /** The identity of the server at `admin` (its administrative login, any database). */
  @SqlNotRun(ON_ANOTHER_SERVER)
  identityAt(admin: DbTarget): Promise<ServerIdentity> {
    return withAdminConnection(admin, (pg) => this.identity(pg), IDENTITY_CONNECT_TIMEOUT_MS);
  }

  @SqlNotRun(ON_ANOTHER_SERVER)
  async logicalReplication(admin: PgClient): Promise<boolean> {
    const { rows } = await admin.query<{ wal_level: string }>('SHOW wal_level');
    return rows[0].wal_level === 'logical';
  }

  /** The identity of the server at `admin` and its wal_level, over one connection. */
  @SqlNotRun(ON_ANOTHER_SERVER)
  factsAt(admin: DbTarget): Promise<ServerFacts> {
    return withAdminConnection(
      admin,
      async (pg) => ({ ...(await this.identity(pg)), logicalReplication: await this.logicalReplication(pg) }),
      IDENTITY_CONNECT_TIMEOUT_MS,
    );
  }

  /**
   * The summed size of `databases` (those missing count nothing) and the client sessions open on
   * the server, this one excluded; at most `timeoutMs` for the connection and the query each.
   */
  @SqlNotRun(ON_ANOTHER_SERVER)
  usageAt(admin: DbTarget, databases: string[], timeoutMs: number): Promise<ServerUsage> {
    return withAdminConnection(
      admin,
      async (pg) => {
        await pg.query(`SET statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
        const { rows } = await pg.query<{ size: string; connections: number }>(
          `SELECT (SELECT coalesce(sum(pg_database_size(datname)), 0)::text
                     FROM pg_database WHERE datname = ANY($1::text[])) AS size,
                  (SELECT count(*)::int FROM pg_stat_activity
                    WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()) AS connections`,
          [databases],
        );
        return { totalSizeBytes: Number(rows[0].size), connections: rows[0].connections };
      },
      timeoutMs,
    );
  }

  @SqlNotRun(ON_ANOTHER_SERVER)
  async databaseExists(admin: PgClient, name: string): Promise<boolean> {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return (rowCount ?? 0) > 0;
  }

  @SqlNotRun(ON_ANOTHER_SERVER)
  async roleExists(admin: PgClient, role: string): Promise<boolean> {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    return (rowCount ?? 0) > 0;
  }

  /** A new login role with that password. */
  @SqlNotRun('creates a login role')
  async createLoginRole(admin: PgClient, role: string, password: string): Promise<void> {
    await admin.query(`CREATE ROLE ${quoteIdent(role)} LOGIN PASSWORD ${quoteLiteral(password)}`);
  }

  /** The login role, created when missing, logs in with that password (idempotent). */
  @SqlNotRun('creates or alters a login role')
  async ensureLoginRole(admin: PgClient, role: string, password: string): Promise<void> {
    if (!(await this.roleExists(admin, role))) await admin.query(`CREATE ROLE ${quoteIdent(role)} LOGIN`);
    await admin.query(`ALTER ROLE ${quoteIdent(role)} WITH LOGIN PASSWORD ${quoteLiteral(password)}`);
  }

  @SqlNotRun('creates a database')
  async createDatabase(admin: PgClient, name: string): Promise<void> {
    await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  }

  /** Only `role` (and the administrative login) may connect to the database. */
  @SqlNotRun('changes the rights on a database')
  async restrictDatabaseTo(admin: PgClient, database: string, role: string): Promise<void> {
    await admin.query(`REVOKE ALL ON DATABASE ${quoteIdent(database)} FROM PUBLIC`);
    await admin.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${quoteIdent(database)} TO ${quoteIdent(role)}`);
  }

  /** Only the login of this connection may connect to the database (the master database). */
  @SqlNotRun('changes the rights on the master database')
  async restrictDatabaseToCurrentUser(admin: PgClient, database: string): Promise<void> {
    await admin.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${quoteIdent(database)} TO CURRENT_USER`);
    await admin.query(`REVOKE CONNECT, TEMPORARY ON DATABASE ${quoteIdent(database)} FROM PUBLIC`);
  }

  /** Drops the database, ending its sessions. */
  @SqlNotRun('drops a database')
  async dropDatabase(admin: PgClient, name: string): Promise<void> {
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  }

  @SqlNotRun('drops a login role')
  async dropRole(admin: PgClient, role: string): Promise<void> {
    await admin.query(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
  }

  /** New sessions of the database start read-only; answers the server's clock at that moment. */
  @SqlNotRun('makes a database read-only')
  async makeReadOnly(admin: PgClient, database: string): Promise<Date> {
    await admin.query(`ALTER DATABASE ${quoteIdent(database)} SET default_transaction_read_only = on`);
    const { rows } = await admin.query<{ since: Date }>('SELECT clock_timestamp() AS since');
    return rows[0].since;
  }

  /** New sessions of the database may write again. */
  @SqlNotRun('alters a database')
  async resetReadOnly(admin: PgClient, database: string): Promise<void> {
    await admin.query(`ALTER DATABASE ${quoteIdent(database)} RESET default_transaction_read_only`);
  }

  /** The client sessions of the database opened before `since`, and whether each is idle. */
  @SqlNotRun(ON_ANOTHER_SERVER)
  async sessionsOpenedBefore(admin: PgClient, database: string, since: Date): Promise<DatabaseSession[]> {
    const { rows } = await admin.query<DatabaseSession>(
      `SELECT pid, state = 'idle' AS idle FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_start < $2
          AND backend_type = 'client backend'`,
      [database, since],
    );
    return rows;
  }

  @SqlNotRun('ends sessions')
  async endSessions(admin: PgClient, pids: number[]): Promise<void> {
    await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
  }

  /** Ends every client session of the database but this one. */
  @SqlNotRun('ends sessions')
  async endAllSessions(admin: PgClient, database: string): Promise<void> {
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      [database],
    );
  }

  /** Waits for the session advisory lock `key`; it ends with the connection or unlockSession. */
  @SqlNotRun('waits on an advisory lock')
  async lockSession(admin: PgClient, key: number): Promise<void> {
    await admin.query('SELECT pg_advisory_lock($1)', [key]);
  }

  @SqlNotRun('releases an advisory lock of its connection')
  async unlockSession(admin: PgClient, key: number): Promise<void> {
    await admin.query('SELECT pg_advisory_unlock($1)', [key]);
  }

  /** Takes the session advisory lock (`key`, `id`) if free; answers whether it did. */
  @SqlNotRun('takes an advisory lock held until its connection ends')
  async tryLockSession(admin: PgClient, key: number, id: number): Promise<boolean> {
    const { rows } = await admin.query<{ claimed: boolean }>(
      'SELECT pg_try_advisory_lock($1, $2) AS claimed',
      [key, id],
    );
    return rows[0].claimed;
  }

  @SqlNotRun('opens a transaction the caller ends')
  async begin(admin: PgClient): Promise<void> {
    await admin.query('BEGIN');
  }

  @SqlNotRun('ends the transaction of its connection')
  async rollback(admin: PgClient): Promise<void> {
    await admin.query('ROLLBACK');
  }

  /** Takes the transaction advisory lock (`key`, `id`) if free; answers whether it did. */
  @SqlNotRun('takes an advisory lock held until its transaction ends')
  async tryLockTransaction(admin: PgClient, key: number, id: number): Promise<boolean> {
    const { rows } = await admin.query<{ claimed: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1, $2) AS claimed',
      [key, id],
    );
    return rows[0].claimed;
  }
}
