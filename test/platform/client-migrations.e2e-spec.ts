import { Client as PgClient } from 'pg';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { MigratedVersions } from '../../src/platform/migrated-versions';
import { ClientRegistry } from '../../src/tenancy/client-registry';
import { runMigrationJob, waitForJob } from '../support/migration-jobs';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { databaseUrl } from '../support/test-env';
import { undoNewestClientMigration } from '../support/undo-migration';
import { bootApp, ProvisionedClient, provisionClient, superAdminToken, TestApp } from '../support/test-app';

const NEWEST = new CLIENT_MIGRATIONS[CLIENT_MIGRATIONS.length - 1]().name;
const PREVIOUS = new CLIENT_MIGRATIONS[CLIENT_MIGRATIONS.length - 2]().name;
/** The migration runner's advisory lock: holding it keeps a client's migration waiting. */
const MIGRATION_LOCK = 7243001;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('client migrations', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let replica: TestApp | undefined;
  let acme: ProvisionedClient;
  let beta: ProvisionedClient;
  let root: string;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { SMTP_URL: sink.url } });
    acme = await provisionClient(t, sink, 'acme');
    beta = await provisionClient(t, sink, 'beta');
    root = await superAdminToken(t);
  });
  afterAll(async () => {
    await replica?.close();
    await t?.close();
    await sink?.stop();
  });

  const db = (identifier: string) => clientDatabase(t.masterDatabase, identifier);
  const putBehind = (identifier: string) => undoNewestClientMigration(db(identifier));
  const hasNewest = async (identifier: string) =>
    (await sql(db(identifier), 'SELECT 1 FROM public.migrations WHERE name = $1', [NEWEST])).length === 1;
  const units = (app: TestApp, client: ProvisionedClient) =>
    app
      .http()
      .get('/api/units')
      .set({ 'X-Client-ID': client.identifier, Authorization: `Bearer ${client.adminToken}` });
  const metric = async (app: TestApp, name: string) =>
    Number(new RegExp(`^${name} (\\d+)`, 'm').exec((await app.http().get('/metrics')).text)?.[1]);
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('answers 503 CLIENT_MIGRATING with Retry-After while a client migrates at start, then serves it', async () => {
    await putBehind('acme');
    // Hold the migration lock in acme's database: the new instance's migration of acme waits on it.
    const holder = new PgClient({ connectionString: databaseUrl(db('acme')) });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      replica = await bootApp({
        masterDatabase: t.masterDatabase,
        env: { SMTP_URL: sink.url },
        waitForClients: false,
      });
      expect((await replica.http().get('/management/health/liveness')).status).toBe(200);

      const refused = await units(replica, acme);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.body).toEqual({
        error: { status: 503, code: 'CLIENT_MIGRATING', message: expect.any(String) },
      });
      // Other clients are checked beside it and served as soon as they are known to be current.
      await until('beta served', async () => (await units(replica!, beta)).status === 200);
      expect(await metric(replica, 'clients_migrating')).toBe(1);
      expect(await hasNewest('acme')).toBe(false);
    } finally {
      await holder.end();
    }
    await until('acme served', async () => (await units(replica!, acme)).status === 200);
    expect(await hasNewest('acme')).toBe(true);
    expect(await metric(replica, 'clients_migrating')).toBe(0);
  });

  it('runs migrate-all as a job whose progress every replica shows per client', async () => {
    await putBehind('beta');
    const started = await t
      .http()
      .post('/api/platform/clients/migrate')
      .set('Authorization', `Bearer ${root}`);
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ data: { jobId: expect.stringMatching(UUID) } });
    const { jobId } = started.body.data;

    const early = await replica!
      .http()
      .get(`/api/platform/migrations/${jobId}`)
      .set('Authorization', `Bearer ${root}`);
    expect(early.status).toBe(200);
    expect(early.body.data).toMatchObject({ jobId, scope: 'all', counts: { total: 2 } });

    const job = await waitForJob(t, root, jobId);
    expect(job).toMatchObject({
      status: 'finished',
      counts: { total: 2, queued: 0, running: 0, done: 2, failed: 0, migrated: 1 },
    });
    expect(Date.parse(job.finishedAt)).toBeGreaterThanOrEqual(Date.parse(job.startedAt));
    expect(job.clients).toEqual([
      {
        identifier: 'acme',
        status: 'done',
        migrationsRun: [],
        backgroundMigrations: [
          { schema: 'public', name: 'AuditLogsCompany', rowsDone: expect.any(Number), done: true },
        ],
        startedAt: expect.any(String),
        finishedAt: expect.any(String),
      },
      {
        identifier: 'beta',
        status: 'done',
        migrationsRun: [NEWEST],
        backgroundMigrations: [
          { schema: 'public', name: 'AuditLogsCompany', rowsDone: expect.any(Number), done: true },
        ],
        startedAt: expect.any(String),
        finishedAt: expect.any(String),
      },
    ]);
    expect(await hasNewest('beta')).toBe(true);
    const status = await t
      .http()
      .get('/api/platform/clients/migration-status')
      .set('Authorization', `Bearer ${root}`);
    expect(status.body).toMatchObject({ totalClients: 2, clientsWithPendingMigrations: 0 });
  });

  it('answers migration status from the versions jobs recorded, asking a database only for a client with none', async () => {
    const status = async () =>
      (await t.http().get('/api/platform/clients/migration-status').set('Authorization', `Bearer ${root}`))
        .body;
    const versions = t.app.get(MigratedVersions);
    // The job above recorded both clients as current: a change behind its back goes unseen…
    await putBehind('acme');
    expect(await status()).toMatchObject({ totalClients: 2, clientsWithPendingMigrations: 0 });
    // …until the record is gone: then the database is asked, and its answer recorded.
    await versions.forget('acme');
    expect(await status()).toMatchObject({
      clientsWithPendingMigrations: 1,
      data: { acme: { currentVersion: PREVIOUS, pendingCount: 1, pendingVersions: [NEWEST] } },
    });
    expect(await versions.of(['acme'])).toEqual(new Map([['acme', PREVIOUS]]));
    // A job records what it leaves.
    await runMigrationJob(t, root, `/api/platform/clients/${acme.id}/migrate`);
    expect(await versions.of(['acme', 'beta'])).toEqual(
      new Map([
        ['acme', NEWEST],
        ['beta', NEWEST],
      ]),
    );
    expect(await status()).toMatchObject({ clientsWithPendingMigrations: 0 });
  });

  it('migrates one client as a job; an unknown client or job is 404', async () => {
    await putBehind('acme');
    const job = await runMigrationJob(t, root, `/api/platform/clients/${acme.id}/migrate`);
    expect(job).toMatchObject({ scope: 'client', counts: { total: 1, done: 1, migrated: 1 } });
    expect(job.clients).toEqual([expect.objectContaining({ identifier: 'acme', migrationsRun: [NEWEST] })]);
    expect(await hasNewest('acme')).toBe(true);

    const admin = (method: 'get' | 'post', path: string) =>
      t.http()[method](path).set('Authorization', `Bearer ${root}`);
    expect((await admin('post', '/api/platform/clients/999999/migrate')).status).toBe(404);
    const unknown = await admin('get', '/api/platform/migrations/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((await admin('get', '/api/platform/migrations/not-a-job')).status).toBe(404);
  });

  it('reports a client that cannot be migrated as failed, by class, and counts it', async () => {
    const [ghost] = await sql<{ id: number }>(
      t.masterDatabase,
      `INSERT INTO clients (identifier, company_name, contact_email, database_host, database_port, database_name, database_username, status)
       VALUES ('ghost', 'Ghost', 'it@ghost.test', '127.0.0.1', 1, 'ghost', 'ghost', 'SUSPENDED') RETURNING id`,
    );
    try {
      await Promise.all([t, replica!].map((app) => app.app.get(ClientRegistry).reload()));
      const before =
        (await metric(t, 'client_migration_failures_total')) +
        (await metric(replica!, 'client_migration_failures_total'));
      const job = await runMigrationJob(t, root, `/api/platform/clients/${ghost.id}/migrate`);
      expect(job.counts).toMatchObject({ total: 1, failed: 1, done: 0 });
      expect(job.clients[0]).toMatchObject({
        identifier: 'ghost',
        status: 'failed',
        error: 'Database server unreachable (ECONNREFUSED)',
      });
      const after =
        (await metric(t, 'client_migration_failures_total')) +
        (await metric(replica!, 'client_migration_failures_total'));
      expect(after).toBe(before + 1);
    } finally {
      await sql(t.masterDatabase, `UPDATE clients SET status = 'DELETED' WHERE id = $1`, [ghost.id]);
    }
  });
});
