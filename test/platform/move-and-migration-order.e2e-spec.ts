import { Client } from 'pg';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { createDataSource, parseDatabaseUrl } from '../../src/database/data-source-factory';
import { OwnPostgres } from '../operations/own-services';
import { sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, superAdminToken, TestApp } from '../support/test-app';
import { databaseUrl } from '../support/test-env';
import { NEWEST_CLIENT_MIGRATION } from '../support/undo-migration';

/** The migration runner's advisory lock in a client database: holding it keeps its migration running. */
const MIGRATION_LOCK = 7243001;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Puts the client database at `url` one migration behind (the newest one's `down()`). */
async function undoNewest(url: string) {
  const dataSource = createDataSource(parseDatabaseUrl(url), {
    entities: [],
    poolMax: 1,
    migrations: [...CLIENT_MIGRATIONS],
    applicationName: 'test-undo-migration',
  });
  await dataSource.initialize();
  try {
    await dataSource.undoLastMigration({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}

async function hasNewest(url: string): Promise<boolean> {
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    const { rowCount } = await pg.query('SELECT 1 FROM public.migrations WHERE name = $1', [
      NEWEST_CLIENT_MIGRATION,
    ]);
    return rowCount === 1;
  } finally {
    await pg.end();
  }
}

/**
 * A client's move and its migrations never overlap: a migration reaching a client being moved waits
 * for the move (and migrates the database where the move put it); a move waits for a migration in
 * progress (and copies the migrated database).
 */
describe('client moves and migrations wait for each other', () => {
  const second = new OwnPostgres();
  const sink = new SmtpSink();
  let t: TestApp;
  let root: string;
  let acme: ProvisionedClient;
  let defaultId: number;
  let secondId: number;
  const platform = (method: 'get' | 'post', path: string) =>
    t.http()[method](`/api/platform${path}`).set('Authorization', `Bearer ${root}`);
  /** acme's database: a move copies it into one of its own name. */
  const database = async () => {
    const [{ name }] = await sql<{ name: string }>(
      t.masterDatabase,
      'SELECT database_name AS name FROM clients WHERE id = $1',
      [acme.id],
    );
    return name;
  };
  const onDefault = async () => databaseUrl(await database());
  const onSecond = async () => second.url(await database());

  /** Polls until `done` accepts the answer; answers every body seen. */
  async function follow(path: string, done: (data: Record<string, unknown>) => boolean, timeoutMs = 60_000) {
    const seen: Record<string, unknown>[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await platform('get', path);
      expect(res.status).toBe(200);
      seen.push(res.body.data);
      if (done(res.body.data)) return seen;
      if (Date.now() > deadline) throw new Error(`${path} not done: ${JSON.stringify(res.body.data)}`);
      await sleep(100);
    }
  }
  async function untilMigrationHoldsClientLock() {
    const deadline = Date.now() + 30_000;
    for (;;) {
      // ClientMoveLock: a move or a migration of a client holds the client's lease on the master.
      const held = await sql(
        t.masterDatabase,
        `SELECT 1 FROM client_leases WHERE client_id = $1 AND purpose = 'migration' AND expires_at > now()`,
        [acme.id],
      );
      if (held.length) return;
      if (Date.now() > deadline) throw new Error("the migration never took the client's lock");
      await sleep(50);
    }
  }
  const migrationOf = (job: Record<string, unknown>) =>
    (job.clients as Record<string, unknown>[]).find((c) => c.identifier === 'acme')!;

  beforeAll(async () => {
    await Promise.all([second.create(), sink.start()]);
    t = await bootApp({ env: { SMTP_URL: sink.url, CLIENT_MOVE_SOURCE_GRACE_MS: '1000' } });
    root = await superAdminToken(t);
    acme = await provisionClient(t, sink, 'acme');
    defaultId = (await platform('get', '/database-servers')).body.data[0].id;
    const created = await platform('post', '/database-servers').send({
      name: 'second',
      host: '127.0.0.1',
      port: second.port,
      adminUsername: 'postgres',
      maxClients: 10,
    });
    expect(created.status).toBe(201);
    secondId = created.body.data.id;
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await Promise.all([second.destroy(), sink.stop()]);
  });

  it('a migration job reaching a client being moved waits for the move, then migrates it on its new server', async () => {
    await undoNewest(await onDefault());
    // A transaction left open on acme's database keeps the move in its pause (sessions drained) for 10 s.
    const busy = new Client({ connectionString: await onDefault() });
    busy.on('error', () => undefined);
    await busy.connect();
    await busy.query('BEGIN');
    await busy.query('SELECT 1');
    try {
      const move = await platform('post', `/clients/${acme.id}/move`).send({ serverId: secondId });
      expect(move.status).toBe(202);
      const moveId = move.body.data.jobId;
      await follow(`/moves/${moveId}`, (job) => job.step === 'copying');

      const migration = await platform('post', `/clients/${acme.id}/migrate`);
      expect(migration.status).toBe(202);
      const migrationId = migration.body.data.jobId;
      const waiting = await follow(
        `/migrations/${migrationId}`,
        (job) => migrationOf(job).waitingFor === 'move',
      );
      expect(migrationOf(waiting.pop()!)).toMatchObject({ status: 'running', migrationsRun: [] });

      const moveSeen = await follow(
        `/moves/${moveId}`,
        (job) => job.status !== 'running' && job.status !== 'queued',
      );
      const moved = moveSeen.pop()!;
      expect(moved).toMatchObject({ status: 'done', step: 'finished' });
      const finished = await follow(`/migrations/${migrationId}`, (job) => job.status === 'finished');
      const done = migrationOf(finished.pop()!);
      expect(done).toMatchObject({ status: 'done', migrationsRun: [NEWEST_CLIENT_MIGRATION] });
      expect(done.waitingFor).toBeUndefined();
      // The migration ran after the move, on the database's new server.
      expect(Date.parse(done.finishedAt as string)).toBeGreaterThanOrEqual(
        Date.parse(moved.finishedAt as string),
      );
      expect(await hasNewest(await onSecond())).toBe(true);
    } finally {
      await busy.end().catch(() => undefined);
    }
    const units = await t
      .http()
      .get('/api/units')
      .set({ 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` });
    expect(units.status).toBe(200);
  }, 120_000);

  it('a move waits for a migration of the client in progress, then copies the migrated database', async () => {
    await undoNewest(await onSecond());
    // Holding the migration runner's lock in acme's database keeps acme's migration in progress.
    const holder = new Client({ connectionString: await onSecond() });
    holder.on('error', () => undefined); // the move ends it once it pauses the source
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    let released = false;
    try {
      const migration = await platform('post', `/clients/${acme.id}/migrate`);
      expect(migration.status).toBe(202);
      const migrationId = migration.body.data.jobId;
      await follow(`/migrations/${migrationId}`, (job) => migrationOf(job).status === 'running');
      // "running" is recorded before the migration takes the client's lock: a move posted in between
      // may rightly go first. The order under test starts once the migration holds it.
      await untilMigrationHoldsClientLock();

      const move = await platform('post', `/clients/${acme.id}/move`).send({ serverId: defaultId });
      expect(move.status).toBe(202);
      const moveId = move.body.data.jobId;
      const waiting = (await follow(`/moves/${moveId}`, (job) => job.waitingFor === 'migration')).pop()!;
      expect(waiting).toMatchObject({ status: 'queued', step: 'queued' });
      // Still waiting a while later: nothing was paused nor copied under the running migration.
      await sleep(1500);
      expect((await platform('get', `/moves/${moveId}`)).body.data).toMatchObject({
        status: 'queued',
        waitingFor: 'migration',
      });
      expect(await hasNewest(await onSecond())).toBe(false);

      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      released = true;
      const finished = await follow(`/migrations/${migrationId}`, (job) => job.status === 'finished');
      const done = migrationOf(finished.pop()!);
      expect(done).toMatchObject({ status: 'done', migrationsRun: [NEWEST_CLIENT_MIGRATION] });
      const moved = (
        await follow(`/moves/${moveId}`, (job) => job.status !== 'running' && job.status !== 'queued')
      ).pop()!;
      expect(moved).toMatchObject({ status: 'done', step: 'finished' });
      expect(moved.waitingFor).toBeUndefined();
      expect(Date.parse(moved.finishedAt as string)).toBeGreaterThan(Date.parse(done.finishedAt as string));
      // The copy on the default server carries what the migration did.
      expect(await hasNewest(await onDefault())).toBe(true);
    } finally {
      if (!released)
        await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      await holder.end().catch(() => undefined);
    }
  }, 120_000);
});
