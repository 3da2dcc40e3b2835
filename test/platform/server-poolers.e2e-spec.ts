import { OwnPgBouncer, OwnPostgres } from '../operations/own-services';
import { clientDatabase, sql } from '../support/pg';
import { codeFromMail, SmtpSink } from '../support/smtp-sink';
import { bootApp, login, superAdminToken, TestApp, waitForStatus } from '../support/test-app';
import { ADMIN_URL } from '../support/test-env';

/**
 * A PgBouncer in front of each database server: the default one (the shared test server) gets its
 * pooler from MULTITENANCY_DB_POOLER_HOST/PORT, a second server (a cluster of the test's own) gets
 * one through the API. A client's requests go through its server's pooler; provisioning and a move's
 * copy never do: they finish while that pooler is paused.
 */
describe('database servers: a pooler per server', () => {
  const second = new OwnPostgres();
  const defaultPooler = new OwnPgBouncer();
  const secondPooler = new OwnPgBouncer();
  const sink = new SmtpSink();
  let a: TestApp;
  let root: string;
  let secondId: number;
  let defaultId: number;
  const platform = (method: 'get' | 'post' | 'put', path: string) =>
    a.http()[method](`/api/platform${path}`).set('Authorization', `Bearer ${root}`);

  beforeAll(async () => {
    const shared = new URL(ADMIN_URL);
    await Promise.all([
      second.create(),
      sink.start(),
      defaultPooler.start(shared.hostname, Number(shared.port)),
    ]);
    await secondPooler.start('127.0.0.1', second.port);
    a = await bootApp({
      env: {
        SMTP_URL: sink.url,
        CLIENT_MOVE_SOURCE_GRACE_MS: '1000',
        MULTITENANCY_DB_POOLER_HOST: '127.0.0.1',
        MULTITENANCY_DB_POOLER_PORT: String(defaultPooler.port),
      },
    });
    root = await superAdminToken(a);
  });
  afterAll(async () => {
    await a?.close();
    await Promise.all([secondPooler.stop(), defaultPooler.stop()]);
    await Promise.all([second.destroy(), sink.stop()]);
  });

  it('takes a pooler address with a server (both or neither, null clears) and never answers it', async () => {
    const [listed] = (await platform('get', '/database-servers')).body.data;
    expect(listed).toMatchObject({ isDefault: true, pooled: true }); // from the environment
    defaultId = listed.id;

    const base = { name: 'second', host: '127.0.0.1', port: second.port, adminUsername: 'postgres' };
    for (const bad of [
      { poolerHost: '127.0.0.1' },
      { poolerPort: 6432 },
      { poolerHost: '127.0.0.1', poolerPort: 0 },
      { poolerHost: '127.0.0.1', poolerPort: 65536 },
      { poolerHost: '127.0.0.1', poolerPort: '6432' },
      { poolerHost: 'not a host', poolerPort: 6432 },
      { poolerHost: '127.0.0.1', poolerPort: null },
    ]) {
      const res = await platform('post', '/database-servers').send({ ...base, ...bad });
      expect({ bad, status: res.status, code: res.body.error?.code }).toEqual({
        bad,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }

    const created = await platform('post', '/database-servers').send({
      ...base,
      poolerHost: '127.0.0.1',
      poolerPort: secondPooler.port,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'second', pooled: true });
    secondId = created.body.data.id;
    const text = JSON.stringify(created.body);
    for (const secret of ['poolerHost', 'poolerPort', String(secondPooler.port), '127.0.0.1']) {
      expect(text).not.toContain(secret);
    }

    // The default server, registered again through its pooler's address, is still the default server.
    const throughPooler = await platform('post', '/database-servers').send({
      name: 'default-through-its-pooler',
      host: '127.0.0.1',
      port: defaultPooler.port,
      adminUsername: 'postgres',
    });
    expect({ status: throughPooler.status, code: throughPooler.body.error?.code }).toEqual({
      status: 409,
      code: 'CONFLICT',
    });

    const portAlone = await platform('put', `/database-servers/${secondId}`).send({ poolerPort: 6432 });
    expect(portAlone.status).toBe(400);
    const cleared = await platform('put', `/database-servers/${secondId}`).send({ poolerHost: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.pooled).toBe(false);
    const set = await platform('put', `/database-servers/${secondId}`).send({
      poolerHost: '127.0.0.1',
      poolerPort: secondPooler.port,
    });
    expect(set.status).toBe(200);
    expect(set.body.data.pooled).toBe(true);
  });

  const identifier = 'pooled';
  let clientId: number;
  let token: string;
  /** The client's database: a move copies it into one of its own name. */
  const currentDatabase = async () =>
    (
      await sql<{ name: string }>(
        a.masterDatabase,
        'SELECT database_name AS name FROM clients WHERE id = $1',
        [clientId],
      )
    )[0].name;
  const units = () =>
    a
      .http()
      .get('/api/units')
      .set({ 'X-Client-ID': identifier, Authorization: `Bearer ${token}` });

  it("sends a client's requests through its server's pooler, and provisions it directly", async () => {
    const database = clientDatabase(a.masterDatabase, identifier);
    const adminEmail = `admin@${identifier}.test`;
    const created = await platform('post', '/clients').send({
      identifier,
      name: 'Pooled Energy',
      contactEmail: adminEmail,
      serverId: secondId,
    });
    expect(created.status).toBe(201);
    clientId = created.body.data.id;

    // Creating the database, migrating and seeding it finish while the pooler holds every query.
    await secondPooler.admin('PAUSE');
    try {
      expect((await platform('post', `/clients/${clientId}/provision`)).status).toBe(202);
      await waitForStatus(a, root, clientId, 'ACTIVE');
    } finally {
      await secondPooler.admin('RESUME');
    }
    expect(await secondPooler.transactions(database)).toBe(0);

    const mail = await sink.waitFor(adminEmail, (m) => m.text.includes('code='));
    const password = 'Adm1n-password!';
    const reset = await a
      .http()
      .post('/auth/reset-password')
      .set('X-Client-ID', identifier)
      .send({ code: codeFromMail(mail), password, passwordConfirmation: password });
    expect(reset.status).toBe(200);
    token = await login(a, adminEmail, password, identifier);
    const unit = await a
      .http()
      .post('/api/units')
      .set({ 'X-Client-ID': identifier, Authorization: `Bearer ${token}` })
      .send({ name: 'Behind the pooler' });
    expect(unit.status).toBe(201);

    expect(await secondPooler.transactions(database)).toBeGreaterThan(0);
    expect(await defaultPooler.transactions(database)).toBe(0);
  });

  it("moves a client without either pooler, and then reaches it through the new server's", async () => {
    await defaultPooler.admin('PAUSE');
    let job: { status: string; error?: string } = { status: 'queued' };
    try {
      const started = await platform('post', `/clients/${clientId}/move`).send({ serverId: defaultId });
      expect(started.status).toBe(202);
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && job.status !== 'done' && job.status !== 'failed') {
        await new Promise((resolve) => setTimeout(resolve, 200));
        job = (await platform('get', `/moves/${started.body.data.jobId}`)).body.data;
      }
    } finally {
      await defaultPooler.admin('RESUME');
    }
    expect(job).toMatchObject({ status: 'done' });

    const database = await currentDatabase();
    const before = await secondPooler.transactions(database);
    const listed = await units();
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((u: { name: string }) => u.name)).toEqual(['Behind the pooler']);
    expect(await defaultPooler.transactions(database)).toBeGreaterThan(0);
    expect(await secondPooler.transactions(database)).toBe(before);
  });

  it('closes the pools of a server whose pooler is cleared: the next request connects directly', async () => {
    const database = await currentDatabase();
    const cleared = await platform('put', `/database-servers/${defaultId}`).send({ poolerHost: null });
    expect(cleared.body.data.pooled).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300)); // a transaction in flight then ends
    const before = await defaultPooler.transactions(database);
    expect((await units()).status).toBe(200);
    expect(await defaultPooler.transactions(database)).toBe(before);
  });

  it("seeds the default server's pooler from the environment only when the registry names none", async () => {
    const database = await currentDatabase();
    // The registry names none (cleared above): a replica started now writes the environment's...
    const b = await bootApp({
      masterDatabase: a.masterDatabase,
      env: {
        MULTITENANCY_DB_POOLER_HOST: '127.0.0.1',
        MULTITENANCY_DB_POOLER_PORT: String(defaultPooler.port),
      },
    });
    // ...and one started next, with another address in its environment, keeps the registry's.
    const c = await bootApp({
      masterDatabase: a.masterDatabase,
      env: { MULTITENANCY_DB_POOLER_HOST: '127.0.0.1', MULTITENANCY_DB_POOLER_PORT: '1' },
    });
    try {
      const server = await platform('get', `/database-servers/${defaultId}`);
      expect(server.body.data.pooled).toBe(true);
      // Every replica, the one running before included, now reaches the client through that pooler.
      for (const replica of [a, b, c]) {
        const before = await defaultPooler.transactions(database);
        const res = await replica
          .http()
          .get('/api/units')
          .set({ 'X-Client-ID': identifier, Authorization: `Bearer ${token}` });
        expect(res.status).toBe(200);
        expect(await defaultPooler.transactions(database)).toBeGreaterThan(before);
      }
    } finally {
      await c.close();
      await b.close();
    }
  });
});
