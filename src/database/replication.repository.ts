import { Injectable } from '@nestjs/common';
import type { Client as PgClient } from 'pg';
import { DbTarget } from './data-source-factory';
import { quoteIdent, quoteLiteral } from './identifiers';
import { SqlNotRun } from './sql-example';

export interface TableName {
  schema: string;
  table: string;
  /** Its size on disk: how long counting it takes, roughly. */
  bytes?: number;
}

export interface SequenceValue {
  schema: string;
  name: string;
  value: string;
}

/** Name of the trigger (on every table) and of the function that refuse writes during a move. */
const GUARD = '_client_move_guard';
const ON_ANOTHER_SERVER = "runs over an administrative connection to a client's database server";
const LOCK_NOT_AVAILABLE = '55P03';
const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`;

/** The user tables of every schema that have no write guard yet. */
const UNGUARDED_TABLES = `SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND ${USER_SCHEMAS}
     AND NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND g.tgname = '${GUARD}')`;

const CREATE_GUARD_TRIGGER = `'CREATE OR REPLACE TRIGGER ${GUARD} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE'
  ' ON %I.%I FOR EACH STATEMENT EXECUTE FUNCTION public.${GUARD}()'`;

/**
 * The guard's trigger function: armed, it refuses the statement; disarmed, it lets it through. It
 * runs as the writer, so it reads nothing: turning it on is replacing it.
 */
function guardFunction(armed: boolean): string {
  const body = armed
    ? `RAISE EXCEPTION 'The client''s database is being moved; writes resume shortly'
         USING ERRCODE = 'read_only_sql_transaction';`
    : 'RETURN NULL;';
  return `CREATE OR REPLACE FUNCTION public.${GUARD}() RETURNS trigger LANGUAGE plpgsql AS $guard$
    BEGIN ${body} END $guard$`;
}

/** A libpq connection string, each value quoted as libpq reads it. */
export function connectionString(target: DbTarget): string {
  const value = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const parts = [
    `host=${value(target.host)}`,
    `port=${target.port}`,
    `dbname=${value(target.database)}`,
    `user=${value(target.username)}`,
  ];
  if (target.password) parts.push(`password=${value(target.password)}`);
  return parts.join(' ');
}

/**
 * Statements of an online move over administrative connections: logical replication between a
 * client's database on its source server and its copy on the target, the write guard that no
 * session of the client's role can lift, sequences and row counts. Names are quoted here.
 */
@Injectable()
export class ReplicationRepository {
  /** Tables (not system ones) whose UPDATE and DELETE logical replication could not carry. */
  @SqlNotRun(ON_ANOTHER_SERVER)
  async tablesWithoutReplicaIdentity(admin: PgClient): Promise<string[]> {
    const { rows } = await admin.query<{ name: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'r' AND c.relpersistence = 'p' AND ${USER_SCHEMAS}
          AND (c.relreplident = 'n' OR c.relreplident = 'd'
               AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary))
        ORDER BY 1`,
    );
    return rows.map((r) => r.name);
  }

  /** The tables logical replication carries: permanent tables of every user schema. */
  @SqlNotRun(ON_ANOTHER_SERVER)
  async tables(admin: PgClient): Promise<TableName[]> {
    const { rows } = await admin.query<TableName>(
      `SELECT n.nspname AS schema, c.relname AS table, pg_relation_size(c.oid)::float8 AS bytes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'r' AND c.relpersistence = 'p' AND ${USER_SCHEMAS}
        ORDER BY 1, 2`,
    );
    return rows;
  }

  @SqlNotRun('creates a publication')
  async createPublication(source: PgClient, name: string): Promise<void> {
    await source.query(`DROP PUBLICATION IF EXISTS ${quoteIdent(name)}`);
    await source.query(`CREATE PUBLICATION ${quoteIdent(name)} FOR ALL TABLES`);
  }

  @SqlNotRun('drops a publication')
  async dropPublication(source: PgClient, name: string): Promise<void> {
    await source.query(`DROP PUBLICATION IF EXISTS ${quoteIdent(name)}`);
  }

  /** Replication slots of the database that no subscriber is reading (a move's, left behind). */
  @SqlNotRun('drops replication slots')
  async dropIdleSlots(source: PgClient, database: string): Promise<void> {
    await source.query(
      `SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots
        WHERE database = $1 AND NOT active`,
      [database],
    );
  }

  /**
   * A subscription to the source's publication of the same name; it copies every table first. It
   * commits synchronously, so the source learns at once what the target has applied (the switch
   * waits for that), not after the target's next background flush.
   */
  @SqlNotRun('creates a subscription')
  async createSubscription(target: PgClient, name: string, source: DbTarget): Promise<void> {
    await target.query(
      `CREATE SUBSCRIPTION ${quoteIdent(name)} CONNECTION ${quoteLiteral(connectionString(source))}
         PUBLICATION ${quoteIdent(name)} WITH (copy_data = true, synchronous_commit = 'on')`,
    );
  }

  /**
   * Drops the subscription if it is there. Its slot on the source is dropped with it when the
   * source answers; otherwise the slot is left for dropIdleSlots on the source.
   */
  @SqlNotRun('drops a subscription')
  async dropSubscription(target: PgClient, name: string): Promise<void> {
    const { rowCount } = await target.query('SELECT 1 FROM pg_subscription WHERE subname = $1', [name]);
    if (!rowCount) return;
    try {
      await target.query(`DROP SUBSCRIPTION ${quoteIdent(name)}`);
    } catch {
      await target.query(`ALTER SUBSCRIPTION ${quoteIdent(name)} DISABLE`);
      await target.query(`ALTER SUBSCRIPTION ${quoteIdent(name)} SET (slot_name = NONE)`);
      await target.query(`DROP SUBSCRIPTION ${quoteIdent(name)}`);
    }
  }

  /** How many of the subscription's tables there are, and how many have finished their first copy. */
  @SqlNotRun(ON_ANOTHER_SERVER)
  async subscriptionTables(target: PgClient, name: string): Promise<{ total: number; ready: number }> {
    const { rows } = await target.query<{ total: number; ready: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE r.srsubstate = 'r')::int AS ready
         FROM pg_subscription s JOIN pg_subscription_rel r ON r.srsubid = s.oid
        WHERE s.subname = $1`,
      [name],
    );
    return rows[0];
  }

  /** Bytes of write-ahead log the subscriber has not confirmed yet; null when the slot is not there. */
  @SqlNotRun(ON_ANOTHER_SERVER)
  async lagBytes(source: PgClient, slot: string): Promise<number | null> {
    const { rows } = await source.query<{ lag: number | null }>(
      `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)::float8 AS lag
         FROM pg_replication_slots WHERE slot_name = $1`,
      [slot],
    );
    return rows.length ? Math.max(0, rows[0].lag ?? 0) : null;
  }

  @SqlNotRun(ON_ANOTHER_SERVER)
  async currentLsn(source: PgClient): Promise<string> {
    const { rows } = await source.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    return rows[0].lsn;
  }

  /** Whether the subscriber has applied and confirmed everything up to `lsn`. */
  @SqlNotRun(ON_ANOTHER_SERVER)
  async confirmedPast(source: PgClient, slot: string, lsn: string): Promise<boolean> {
    const { rows } = await source.query<{ past: boolean }>(
      `SELECT confirmed_flush_lsn >= $2::pg_lsn AS past FROM pg_replication_slots WHERE slot_name = $1`,
      [slot, lsn],
    );
    return rows[0]?.past === true;
  }

  /**
   * Refuses every write of every table (SQLSTATE 25006) by a statement trigger owned by the
   * administrative login: a session of the client's role can neither drop nor disable it, nor
   * turn it off with `BEGIN READ WRITE` or `session_replication_role`. One transaction: it waits
   * (up to `lockTimeoutMs`) for the writers in flight, so once it commits no write can commit any more.
   */
  @SqlNotRun('installs triggers on every table')
  async installWriteGuard(admin: PgClient, lockTimeoutMs: number): Promise<void> {
    await admin.query(`SET lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
    // A copy-mode move has made the database read-only for new sessions first.
    await admin.query('BEGIN READ WRITE');
    try {
      await admin.query(guardFunction(true));
      await admin.query(`
        DO $guard$
        DECLARE t record;
        BEGIN
          FOR t IN ${UNGUARDED_TABLES} LOOP
            EXECUTE format(${CREATE_GUARD_TRIGGER}, t.nspname, t.relname);
          END LOOP;
        END $guard$`);
      await admin.query('COMMIT');
    } catch (err) {
      await admin.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      await admin.query('RESET lock_timeout').catch(() => undefined);
    }
  }

  /**
   * The write guard's triggers on every table, its function still letting every write through
   * (armWriteGuard turns it on at once, with no lock on any table). One short transaction per table,
   * each waiting at most `lockTimeoutMs` for the table's writers in flight; a table whose lock was not
   * had in time is tried again (SQLSTATE 55P03 after `attempts` tries).
   */
  @SqlNotRun('installs triggers on every table')
  async prepareWriteGuard(admin: PgClient, lockTimeoutMs: number, attempts: number): Promise<void> {
    await admin.query(`SET lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
    try {
      await admin.query(guardFunction(false));
      const { rows } = await admin.query<{ nspname: string; relname: string }>(UNGUARDED_TABLES);
      for (const t of rows) {
        for (let attempt = 1; ; attempt++) {
          try {
            await admin.query(
              `CREATE OR REPLACE TRIGGER ${GUARD} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE
                 ON ${quoteIdent(t.nspname)}.${quoteIdent(t.relname)}
                 FOR EACH STATEMENT EXECUTE FUNCTION public.${GUARD}()`,
            );
            break;
          } catch (err) {
            if ((err as { code?: string }).code !== LOCK_NOT_AVAILABLE || attempt >= attempts) throw err;
          }
        }
      }
    } finally {
      await admin.query('RESET lock_timeout').catch(() => undefined);
    }
  }

  /** Turns the prepared write guard on; answers the server's clock once it is on. */
  @SqlNotRun('replaces a function')
  async armWriteGuard(admin: PgClient): Promise<Date> {
    await admin.query(guardFunction(true));
    const { rows } = await admin.query<{ at: Date }>('SELECT clock_timestamp() AS at');
    return rows[0].at;
  }

  /**
   * Client sessions of the database that may still commit a write the guard did not see (their
   * application names): a transaction that wrote before `since`, or a data-changing statement that
   * began before it (its statement trigger ran before the guard was armed). A SELECT that began
   * before is not waited for: each write inside it fires a trigger of its own.
   */
  @SqlNotRun(ON_ANOTHER_SERVER)
  async writersInFlight(admin: PgClient, database: string, since: Date): Promise<string[]> {
    const { rows } = await admin.query<{ name: string }>(
      `SELECT coalesce(application_name, '') || ' (' || coalesce(state, '') || ')' AS name FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'
          AND xact_start < $2
          AND (backend_xid IS NOT NULL OR state = 'active' AND query_start < $2 AND query !~* '^\\s*select\\M')`,
      [database, since],
    );
    return rows.map((r) => r.name);
  }

  /** Removes the write guard (writes resume), waiting up to `lockTimeoutMs` for each table. */
  @SqlNotRun('drops triggers on every table')
  async removeWriteGuard(admin: PgClient, lockTimeoutMs: number): Promise<void> {
    await admin.query(`SET lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
    await admin.query('SET default_transaction_read_only = off');
    try {
      await admin.query(`
        DO $guard$
        DECLARE t record;
        BEGIN
          FOR t IN SELECT tgrelid::regclass AS rel FROM pg_trigger WHERE tgname = '${GUARD}' LOOP
            EXECUTE format('DROP TRIGGER IF EXISTS ${GUARD} ON %s', t.rel);
          END LOOP;
        END $guard$`);
      await admin.query(`DROP FUNCTION IF EXISTS public.${GUARD}()`);
    } finally {
      await admin.query('RESET lock_timeout').catch(() => undefined);
    }
  }

  /**
   * Vacuums and analyses every table of the database, so that counting a table's rows can read its
   * primary key's index instead of every page (the visibility map says which pages need no visit).
   */
  @SqlNotRun('vacuums a database')
  async vacuumAnalyze(admin: PgClient): Promise<void> {
    await admin.query('VACUUM (ANALYZE)');
  }

  /** The sequences that have been used, with their values (logical replication does not carry them). */
  @SqlNotRun(ON_ANOTHER_SERVER)
  async sequences(source: PgClient): Promise<SequenceValue[]> {
    const { rows } = await source.query<SequenceValue>(
      `SELECT schemaname AS schema, sequencename AS name, last_value::text AS value
         FROM pg_sequences WHERE last_value IS NOT NULL ORDER BY 1, 2`,
    );
    return rows;
  }

  @SqlNotRun('sets sequences')
  async setSequences(target: PgClient, values: SequenceValue[]): Promise<void> {
    if (!values.length) return;
    await target.query(
      `SELECT setval(format('%I.%I', s, n)::regclass, v::bigint, true)
         FROM unnest($1::text[], $2::text[], $3::text[]) AS t(s, n, v)`,
      [values.map((v) => v.schema), values.map((v) => v.name), values.map((v) => v.value)],
    );
  }

  /** Rows of each table, in the order given, counted in one statement under `timeoutMs`. */
  @SqlNotRun(ON_ANOTHER_SERVER)
  async rowCounts(admin: PgClient, tables: TableName[], timeoutMs: number): Promise<number[]> {
    if (!tables.length) return [];
    const counts = tables.map(
      (t, i) => `SELECT ${i} AS i, count(*)::float8 AS n FROM ${quoteIdent(t.schema)}.${quoteIdent(t.table)}`,
    );
    await admin.query(`SET statement_timeout = ${Math.max(1, Math.round(timeoutMs))}`);
    try {
      const { rows } = await admin.query<{ i: number; n: number }>(counts.join(' UNION ALL '));
      const result = new Array<number>(tables.length).fill(0);
      for (const row of rows) result[row.i] = row.n;
      return result;
    } finally {
      await admin.query('RESET statement_timeout').catch(() => undefined);
    }
  }

  /**
   * The client's role can no longer connect to its former database, and its sessions there end:
   * a replica that missed the switch cannot read the former copy, and looks the client up again.
   */
  @SqlNotRun('changes the rights on a database and ends sessions')
  async closeToRole(admin: PgClient, database: string, role: string): Promise<void> {
    await admin.query(
      `REVOKE CONNECT, TEMPORARY ON DATABASE ${quoteIdent(database)} FROM ${quoteIdent(role)}`,
    );
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND usename = $2`,
      [database, role],
    );
  }
}
