import { MigratedVersions } from '../../src/platform/migrated-versions';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { createDataSource, parseDatabaseUrl } from '../../src/database/data-source-factory';
import { runMigrationJob } from '../support/migration-jobs';
import { clientDatabase, sql } from '../support/pg';
import { databaseUrl } from '../support/test-env';
import { SmtpSink } from '../support/smtp-sink';
import {
  bootApp,
  ProvisionedClient,
  provisionClient,
  superAdminToken,
  TestApp,
  waitForStatus,
} from '../support/test-app';

describe('tenancy', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let replica: TestApp;
  let acme: ProvisionedClient;
  let beta: ProvisionedClient;
  let root: string;
  const env = { MULTITENANCY_BASE_DOMAIN: 'platform.test' };

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { ...env, SMTP_URL: sink.url } });
    replica = await bootApp({ masterDatabase: t.masterDatabase, env: { ...env, SMTP_URL: sink.url } });
    acme = await provisionClient(t, sink, 'acme', {
      subdomain: 'acme',
      customDomain: 'maintenance.acme-energy.com',
    });
    beta = await provisionClient(t, sink, 'beta');
    root = await superAdminToken(t);
  });
  afterAll(async () => {
    await replica?.close();
    await t?.close();
    await sink?.stop();
  });

  const units = (app: TestApp, token: string, headers: Record<string, string>) =>
    app
      .http()
      .get('/api/units')
      .set({ Authorization: `Bearer ${token}`, ...headers });

  it('resolves the client from header, query, subdomain and custom domain, in that order', async () => {
    expect((await units(t, acme.adminToken, { 'X-Client-ID': 'acme' })).headers['x-current-client']).toBe(
      'acme',
    );
    const byQuery = await t
      .http()
      .get('/api/units?client=acme')
      .set('Authorization', `Bearer ${acme.adminToken}`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.headers['x-current-client']).toBe('acme');
    expect(
      (await units(t, acme.adminToken, { Host: 'acme.platform.test' })).headers['x-current-client'],
    ).toBe('acme');
    expect((await units(t, acme.adminToken, { Host: 'maintenance.acme-energy.com' })).status).toBe(200);
    const headerWins = await units(t, beta.adminToken, { Host: 'acme.platform.test', 'X-Client-ID': 'beta' });
    expect(headerWins.headers['x-current-client']).toBe('beta');
    expect(headerWins.status).toBe(200);
  });

  it('answers 404 CLIENT_NOT_FOUND for an unknown client before authentication, and serves master on the bare domain', async () => {
    for (const headers of [
      { 'X-Client-ID': 'nobody' },
      { Host: 'nobody.platform.test' },
      { 'X-Client-ID': "acme' OR 1=1" },
    ]) {
      const res = await t.http().get('/api/units').set(headers);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('CLIENT_NOT_FOUND');
    }
    const bare = await t
      .http()
      .get('/api/platform/clients')
      .set({ Host: 'platform.test', Authorization: `Bearer ${root}` });
    expect(bare.status).toBe(200);
    expect(bare.headers['x-current-client']).toBe('master');
  });

  it('keeps platform administration to SUPER_ADMIN on the master database', async () => {
    const asClientAdmin = await t
      .http()
      .get('/api/platform/clients')
      .set({ 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` });
    expect(asClientAdmin.status).toBe(403);
    const masterTokenUnderClient = await t
      .http()
      .get('/api/platform/clients')
      .set({ 'X-Client-ID': 'acme', Authorization: `Bearer ${root}` });
    expect(masterTokenUnderClient.status).toBe(401);
    const anonymous = await t.http().get('/api/platform/clients');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
  });

  it('suspension blocks every call of the client on every replica within a second; activation restores it', async () => {
    const suspended = await t
      .http()
      .post(`/api/platform/clients/${beta.id}/suspend`)
      .set('Authorization', `Bearer ${root}`);
    expect(suspended.status).toBe(200);
    expect(suspended.body.data.status).toBe('SUSPENDED');
    const started = Date.now();
    let blockedOnReplica = false;
    while (Date.now() - started < 1000) {
      if ((await units(replica, beta.adminToken, { 'X-Client-ID': 'beta' })).status === 404) {
        blockedOnReplica = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(blockedOnReplica).toBe(true);
    const login = await t
      .http()
      .post('/auth/local')
      .set('X-Client-ID', 'beta')
      .send({ identifier: beta.adminEmail, password: beta.adminPassword });
    expect(login.status).toBe(404);
    expect(login.body.error.code).toBe('CLIENT_NOT_FOUND');
    expect((await units(t, acme.adminToken, { 'X-Client-ID': 'acme' })).status).toBe(200);

    const activated = await t
      .http()
      .post(`/api/platform/clients/${beta.id}/activate`)
      .set('Authorization', `Bearer ${root}`);
    expect(activated.body.data.status).toBe('ACTIVE');
    await new Promise((r) => setTimeout(r, 300));
    expect((await units(replica, beta.adminToken, { 'X-Client-ID': 'beta' })).status).toBe(200);
    expect((await units(t, beta.adminToken, { 'X-Client-ID': 'beta' })).status).toBe(200);
  });

  it('reports migration status and applies pending migrations', async () => {
    const status = await t
      .http()
      .get('/api/platform/clients/migration-status')
      .set('Authorization', `Bearer ${root}`);
    expect(status.status).toBe(200);
    expect(status.body.totalClients).toBe(2);
    expect(status.body.clientsWithPendingMigrations).toBe(0);
    const current = status.body.data.acme.currentVersion;
    expect(status.body.data.acme).toEqual({
      currentVersion: expect.any(String),
      pendingCount: 0,
      pendingVersions: [],
    });

    // Roll beta back by one migration, as if it had been provisioned by an older release.
    const db = clientDatabase(t.masterDatabase, 'beta');
    const [last] = await sql<{ name: string }>(
      db,
      'SELECT name FROM migrations ORDER BY timestamp DESC LIMIT 1',
    );
    expect(last.name).toBe(current);
    const undo = createDataSource(parseDatabaseUrl(databaseUrl(db)), {
      entities: [],
      poolMax: 1,
      migrations: CLIENT_MIGRATIONS,
    });
    await undo.initialize();
    await undo.undoLastMigration({ transaction: 'each' });
    await undo.destroy();
    // Status answers from the version the last migration check recorded: a rollback behind its back
    // is seen once that record is gone (then the database itself is asked).
    await t.app.get(MigratedVersions).forget('beta');
    const behind = await t
      .http()
      .get('/api/platform/clients/migration-status')
      .set('Authorization', `Bearer ${root}`);
    expect(behind.body.clientsWithPendingMigrations).toBe(1);
    expect(behind.body.data.beta).toMatchObject({ pendingCount: 1, pendingVersions: [last.name] });
    expect(behind.body.data.beta.currentVersion).not.toBe(current);

    const migrated = await runMigrationJob(t, root, `/api/platform/clients/${beta.id}/migrate`);
    expect(migrated).toMatchObject({ scope: 'client', counts: { total: 1, done: 1, migrated: 1 } });
    expect(migrated.clients).toEqual([
      expect.objectContaining({ identifier: 'beta', status: 'done', migrationsRun: [last.name] }),
    ]);
    const after = await t
      .http()
      .get('/api/platform/clients/migration-status')
      .set('Authorization', `Bearer ${root}`);
    expect(after.body.data.beta).toEqual({ currentVersion: current, pendingCount: 0, pendingVersions: [] });
    expect((await units(t, beta.adminToken, { 'X-Client-ID': 'beta' })).status).toBe(200);

    // A suspended client's database is migrated too, so that it is current when activated again.
    const admin = (path: string) => t.http().post(path).set('Authorization', `Bearer ${root}`);
    await admin(`/api/platform/clients/${beta.id}/suspend`).expect(200);
    const all = await runMigrationJob(t, root, '/api/platform/clients/migrate');
    expect(all.clients.map((c: { identifier: string; migrationsRun: string[] }) => c)).toEqual([
      expect.objectContaining({ identifier: 'acme', status: 'done', migrationsRun: [] }),
      expect.objectContaining({ identifier: 'beta', status: 'done', migrationsRun: [] }),
    ]);
    await admin(`/api/platform/clients/${beta.id}/activate`).expect(200);
  });

  it('lists every open client connection in health', async () => {
    await units(t, acme.adminToken, { 'X-Client-ID': 'acme' });
    await units(t, beta.adminToken, { 'X-Client-ID': 'beta' });
    // Client entries are for operators (anonymous callers see only the components and flags).
    const health = await t.http().get('/management/health').set('Authorization', `Bearer ${root}`);
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    expect(health.body.details).toMatchObject({
      database: { status: 'up' },
      broker: { status: 'up' },
      cache: { status: 'up' },
      'client:acme': { status: 'up' },
      'client:beta': { status: 'up' },
    });
    expect(health.body.features.multitenancy).toBe(true);
    expect((await t.http().get('/management/health/liveness')).status).toBe(200);
    expect((await t.http().get('/management/health/readiness')).body.status).toBe('ok');
  });

  it('survives PostgreSQL killing idle pooled connections', async () => {
    await units(t, acme.adminToken, { 'X-Client-ID': 'acme' });
    const db = clientDatabase(t.masterDatabase, 'acme');
    const killed = await sql<{ ok: boolean }>(
      t.masterDatabase,
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = $1 AND application_name = 'svc-platform:acme'`,
      [db],
    );
    expect(killed.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 100));
    const after = await units(t, acme.adminToken, { 'X-Client-ID': 'acme' });
    expect(after.status).toBe(200);
  });

  it('returns a failed provisioning to PENDING with lastError, and provisions it on a retry', async () => {
    const created = await t
      .http()
      .post('/api/platform/clients')
      .set('Authorization', `Bearer ${root}`)
      .send({ identifier: 'gamma', name: 'Gamma', contactEmail: 'admin@gamma.test' });
    expect(created.status).toBe(201);
    expect(created.body.data.status).toBe('PENDING');
    const id = created.body.data.id;
    await sql(t.masterDatabase, 'UPDATE clients SET database_port = 1 WHERE id = $1', [id]);
    await t
      .http()
      .post(`/api/platform/clients/${id}/provision`)
      .set('Authorization', `Bearer ${root}`)
      .expect(202);
    const failed = await waitForStatus(t, root, id, 'PENDING');
    // The driver's message names the host and port; the API says what failed without them.
    expect(failed.lastError).toBe('Database server unreachable (ECONNREFUSED)');

    await sql(t.masterDatabase, 'UPDATE clients SET database_port = 5432 WHERE id = $1', [id]);
    await t
      .http()
      .post(`/api/platform/clients/${id}/provision`)
      .set('Authorization', `Bearer ${root}`)
      .expect(202);
    const done = await waitForStatus(t, root, id, 'ACTIVE');
    expect(done.lastError).toBeNull();
    expect(done.provisionedAt).toEqual(expect.any(String));
    const again = await t
      .http()
      .post(`/api/platform/clients/${id}/provision`)
      .set('Authorization', `Bearer ${root}`);
    expect(again.status).toBe(409);
    const dbs = await sql(t.masterDatabase, 'SELECT datname FROM pg_database WHERE datname = $1', [
      clientDatabase(t.masterDatabase, 'gamma'),
    ]);
    expect(dbs).toHaveLength(1);
  });

  it('validates client input and rejects unknown fields', async () => {
    const bad = await t
      .http()
      .post('/api/platform/clients')
      .set('Authorization', `Bearer ${root}`)
      .send({ identifier: 'Bad Name!', contactEmail: 'nope', maxUsers: -1, databaseHost: 'evil' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const fields = bad.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining(['identifier', 'contactEmail', 'maxUsers', 'databaseHost', 'name']),
    );
    const taken = await t
      .http()
      .post('/api/platform/clients')
      .set('Authorization', `Bearer ${root}`)
      .send({ identifier: 'acme', name: 'Again', contactEmail: 'a@b.test' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('CONFLICT');
    const malformed = await t
      .http()
      .post('/api/platform/clients')
      .set({ Authorization: `Bearer ${root}`, 'Content-Type': 'application/json' })
      .send('{"identifier":');
    expect(malformed.status).toBe(400);
    expect(
      (await t.http().get('/api/platform/clients/999999').set('Authorization', `Bearer ${root}`)).status,
    ).toBe(404);
  });

  it('soft-deletes a client, which then leaves the lists and stops resolving', async () => {
    const list = await t.http().get('/api/platform/clients/active').set('Authorization', `Bearer ${root}`);
    const gamma = list.body.data.find((c: { identifier: string }) => c.identifier === 'gamma');
    const deleted = await t
      .http()
      .delete(`/api/platform/clients/${gamma.id}`)
      .set('Authorization', `Bearer ${root}`);
    expect(deleted.body.data.status).toBe('DELETED');
    const after = await t.http().get('/api/platform/clients').set('Authorization', `Bearer ${root}`);
    expect(after.body.data.map((c: { identifier: string }) => c.identifier)).toEqual(['acme', 'beta']);
    expect(after.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 2 });
    expect((await t.http().get('/api/units').set('X-Client-ID', 'gamma')).status).toBe(404);
  });
});
