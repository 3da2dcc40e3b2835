import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { parseDatabaseUrl, withAdminConnection } from '../../src/database/data-source-factory';
import { migrationBounds, runMigrationSet } from '../../src/database/migration-runner';
import { runMigrationJob } from '../support/migration-jobs';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, provisionClient, superAdminToken, TestApp } from '../support/test-app';
import { ADMIN_URL, databaseUrl, runPrefix } from '../support/test-env';
import { NEWEST_CLIENT_MIGRATION, undoNewestClientMigration } from '../support/undo-migration';

/**
 * A migration that needs an ACCESS EXCLUSIVE lock on a table someone is reading: it waits at most
 * MIGRATION_LOCK_TIMEOUT_MS each time (so the requests queued behind it wait no longer), is rolled
 * back and retried, and fails once its retries are spent. On a scratch database of this file's own.
 */
describe('migration lock bounds', () => {
  const database = `${runPrefix()}_lockbounds_${randomBytes(3).toString('hex')}`;
  const target = parseDatabaseUrl(databaseUrl(database));
  const admin = parseDatabaseUrl(ADMIN_URL);

  beforeAll(async () => {
    await withAdminConnection(admin, (pg) => pg.query(`CREATE DATABASE "${database}"`));
  });
  afterAll(async () => {
    await withAdminConnection(admin, (pg) => pg.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  });

  /** A table with a few rows, and a migration that records a marker table then adds a column to it. */
  async function tableAndMigration(table: string, timestamp: number) {
    await sql(database, `CREATE TABLE ${table} (id serial PRIMARY KEY, value int NOT NULL)`);
    await sql(database, `INSERT INTO ${table} (value) SELECT g FROM generate_series(1, 100) g`);
    const name = `AddNoteTo${table.replace(/_/g, '')}${timestamp}`;
    const migration = class implements MigrationInterface {
      name = name;
      async up(q: QueryRunner) {
        await q.query(`CREATE TABLE ${table}_marker (id int)`);
        await q.query(`ALTER TABLE ${table} ADD COLUMN note text`);
      }
      async down(q: QueryRunner) {
        await q.query(`ALTER TABLE ${table} DROP COLUMN note`);
        await q.query(`DROP TABLE ${table}_marker`);
      }
    };
    return { name, migration };
  }

  /** A transaction holding ACCESS SHARE on `table` (a long read) for `ms`; resolves once it holds it. */
  async function holdRead(table: string, ms: number): Promise<{ ended: Promise<void> }> {
    const reader = new Client({
      connectionString: databaseUrl(database),
      application_name: 'test-long-read',
    });
    await reader.connect();
    await reader.query('BEGIN');
    await reader.query(`SELECT count(*) FROM ${table}`);
    const ended = new Promise<void>((resolve) => setTimeout(resolve, ms))
      .then(() => reader.query('COMMIT'))
      .then(() => reader.end());
    return { ended };
  }

  async function migratorWaitsForLock(): Promise<void> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const waiting = await sql(
        database,
        `SELECT 1 FROM pg_stat_activity
          WHERE datname = $1 AND application_name = 'svc-platform:migrator' AND wait_event_type = 'Lock'`,
        [database],
      );
      if (waiting.length) return;
      if (Date.now() > deadline) throw new Error('the migration never waited for its lock');
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async function state(table: string, name: string) {
    const [row] = await sql<{ column: boolean; marker: boolean; recorded: boolean }>(
      database,
      `SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = $1 AND column_name = 'note') AS column,
              to_regclass($2) IS NOT NULL AS marker,
              EXISTS (SELECT 1 FROM public.migrations WHERE name = $3) AS recorded`,
      [table, `${table}_marker`, name],
    );
    return row;
  }

  const settings = (env: NodeJS.ProcessEnv = {}) => migrationBounds(loadConfig(env));

  it('keeps point reads and inserts on the table under 2.5 s while it waits behind a 6 s read', async () => {
    const { name, migration } = await tableAndMigration('readings_a', 1900000000001);
    const read = await holdRead('readings_a', 6000);
    const readEnds = Date.now() + 6000;
    const migrating = runMigrationSet(target, [migration], { bounds: settings() });
    await migratorWaitsForLock();

    const probe = new Client({ connectionString: databaseUrl(database), application_name: 'test-probe' });
    await probe.connect();
    const latencies: { statement: string; ms: number }[] = [];
    try {
      while (Date.now() < readEnds) {
        for (const statement of [
          'SELECT value FROM readings_a WHERE id = 1',
          'INSERT INTO readings_a (value) VALUES (1)',
        ]) {
          const started = Date.now();
          await probe.query(statement);
          latencies.push({ statement, ms: Date.now() - started });
        }
      }
    } finally {
      await probe.end();
    }
    await read.ended;
    await expect(migrating).resolves.toEqual([name]);

    const slowest = Math.max(...latencies.map((l) => l.ms));
    // The first probe queued behind the waiting migration: the measurement saw the lock queue.
    expect(slowest).toBeGreaterThan(1000);
    expect(latencies.filter((l) => l.ms > 2500)).toEqual([]);
    expect(latencies.some((l) => l.statement.startsWith('INSERT'))).toBe(true);
    expect(await state('readings_a', name)).toEqual({ column: true, marker: true, recorded: true });
  });

  it('fails with a lock timeout once its retries are spent, leaving nothing of the migration', async () => {
    const { name, migration } = await tableAndMigration('readings_b', 1900000000002);
    const read = await holdRead('readings_b', 6000);
    const started = Date.now();
    const failure = await runMigrationSet(target, [migration], {
      bounds: settings({ MIGRATION_LOCK_RETRIES: '1' }),
    }).then(
      () => null,
      (err: Error & { code?: string }) => err,
    );
    const elapsed = Date.now() - started;
    await read.ended;

    expect(failure).toMatchObject({ code: '55P03' });
    expect(failure?.message).toContain(
      `Migration ${name} waited over 2000 ms for a lock in each of 2 attempt(s)`,
    );
    // Two waits of MIGRATION_LOCK_TIMEOUT_MS and one backoff, all while the read still held its lock.
    expect(elapsed).toBeGreaterThanOrEqual(4000);
    expect(elapsed).toBeLessThan(6000);
    expect(await state('readings_b', name)).toEqual({ column: false, marker: false, recorded: false });
  });

  it('succeeds on a retry when the read ends in time', async () => {
    const { name, migration } = await tableAndMigration('readings_c', 1900000000003);
    const read = await holdRead('readings_c', 3000);
    const started = Date.now();
    await expect(runMigrationSet(target, [migration], { bounds: settings() })).resolves.toEqual([name]);
    // The first attempt gave up after MIGRATION_LOCK_TIMEOUT_MS; a later one found the table free.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    await read.ended;
    expect(await state('readings_c', name)).toEqual({ column: true, marker: true, recorded: true });
  });

  it('bounds every statement of the migration session', async () => {
    const [row] = await sql<{ lock: string; statement: string; idle: string }>(
      database,
      `SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement,
              current_setting('idle_in_transaction_session_timeout') AS idle`,
    );
    // Sessions other than the migrator's keep the server's defaults.
    expect(row).toEqual({ lock: '0', statement: '0', idle: '0' });
    const { migration } = await tableAndMigration('readings_d', 1900000000004);
    const seen: Record<string, string>[] = [];
    const probing = class extends migration {
      override async up(q: QueryRunner) {
        seen.push(
          ...((await q.query(
            `SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement,
                    current_setting('idle_in_transaction_session_timeout') AS idle`,
          )) as Record<string, string>[]),
        );
        await super.up(q);
      }
    };
    await runMigrationSet(target, [probing], {
      bounds: settings({
        MIGRATION_STATEMENT_TIMEOUT_MS: '0',
        MIGRATION_IDLE_IN_TRANSACTION_TIMEOUT_MS: '15000',
      }),
    });
    expect(seen).toEqual([{ lock: '2s', statement: '0', idle: '15s' }]);
  });
});

/** The app's settings reach client migrations: a migration job gives up on a held lock, then succeeds. */
describe('migration lock bounds of client migration jobs', () => {
  let sink: SmtpSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({
      env: { SMTP_URL: sink.url, MIGRATION_LOCK_TIMEOUT_MS: '300', MIGRATION_LOCK_RETRIES: '1' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  it('fails the client with 55P03 while its migrations table is locked, and migrates it once released', async () => {
    const client = await provisionClient(t, sink, 'lock-bounds');
    const database = clientDatabase(t.masterDatabase, client.identifier);
    await undoNewestClientMigration(database);
    const root = await superAdminToken(t);
    // Whatever the newest migration does, it ends by recording itself in this table: that waits.
    const holder = new Client({
      connectionString: databaseUrl(database),
      application_name: 'test-lock-holder',
    });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE public.migrations IN SHARE MODE');
      const failed = await runMigrationJob(t, root, `/api/platform/clients/${client.id}/migrate`);
      expect(failed.clients).toEqual([
        expect.objectContaining({
          status: 'failed',
          error: 'Database error 55P03: object not in prerequisite state',
          migrationsRun: [],
        }),
      ]);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const applied = await sql(database, 'SELECT 1 FROM public.migrations WHERE name = $1', [
      NEWEST_CLIENT_MIGRATION,
    ]);
    expect(applied).toEqual([]);

    const done = await runMigrationJob(t, root, `/api/platform/clients/${client.id}/migrate`);
    expect(done.clients).toEqual([
      expect.objectContaining({ status: 'done', migrationsRun: [NEWEST_CLIENT_MIGRATION] }),
    ]);
  });
});
