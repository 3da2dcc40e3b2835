import { Client } from 'pg';
import { freePort, OwnPostgres } from '../operations/own-services';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, superAdminToken, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs SQL on a database of the second cluster. */
async function onSecond<T = Record<string, unknown>>(pg: OwnPostgres, database: string, text: string) {
  const client = new Client({ connectionString: pg.url(database) });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * Two PostgreSQL servers (the shared one, the default, and a cluster of the test's own) and two
 * replicas of one deployment: clients are placed on both; one is moved under a steady write load.
 */
describe('database servers: registry, placement, draining and moving a client', () => {
  const second = new OwnPostgres();
  const sink = new SmtpSink();
  let a: TestApp;
  let b: TestApp;
  let root: string;
  let secondId: number;
  let defaultId: number;
  const env = () => ({ SMTP_URL: sink.url, CLIENT_MOVE_SOURCE_GRACE_MS: '1000' });
  const platform = (t: TestApp, method: 'get' | 'post' | 'put', path: string) =>
    t.http()[method](`/api/platform${path}`).set('Authorization', `Bearer ${root}`);

  beforeAll(async () => {
    await Promise.all([second.create(), sink.start()]);
    a = await bootApp({ env: env() });
    b = await bootApp({ masterDatabase: a.masterDatabase, env: env() });
    root = await superAdminToken(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await Promise.all([second.destroy(), sink.stop()]);
  });

  it('registers the default server at start and a second one, never answering connection details', async () => {
    const listed = await platform(a, 'get', '/database-servers');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({ isDefault: true, state: 'active', clients: 0 });
    defaultId = listed.body.data[0].id;

    const created = await platform(a, 'post', '/database-servers').send({
      name: 'second',
      host: '127.0.0.1',
      port: second.port,
      adminUsername: 'postgres',
      adminPassword: 'not-needed-with-trust',
      maxClients: 10,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'second',
      state: 'active',
      isDefault: false,
      clients: 0,
    });
    secondId = created.body.data.id;
    for (const body of [created.body, (await platform(b, 'get', `/database-servers/${secondId}`)).body]) {
      const text = JSON.stringify(body);
      for (const secret of [
        'host',
        '"port"',
        'adminUsername',
        'adminPassword',
        'not-needed',
        String(second.port),
      ]) {
        expect(text).not.toContain(secret);
      }
    }
    const again = await platform(a, 'post', '/database-servers').send({
      name: 'again',
      host: '127.0.0.1',
      port: second.port,
      adminUsername: 'postgres',
    });
    expect(again.status).toBe(409);
    const bad = await platform(a, 'post', '/database-servers').send({ name: 'x', host: 'a b', port: 0 });
    expect(bad.status).toBe(400);
  });

  let alpha: ProvisionedClient;
  let beta: ProvisionedClient;

  it('places clients on the server named, else on the active one with the most room', async () => {
    alpha = await provisionClient(a, sink, 'alpha', { serverId: secondId });
    const [onSecond_] = await onSecond<{ n: number }>(
      second,
      'postgres',
      `SELECT count(*)::int AS n FROM pg_database WHERE datname = '${clientDatabase(a.masterDatabase, 'alpha')}'`,
    );
    expect(onSecond_.n).toBe(1);
    const unit = await a
      .http()
      .post('/api/units')
      .set({ 'X-Client-ID': 'alpha', Authorization: `Bearer ${alpha.adminToken}` })
      .send({ name: 'On the second server' });
    expect(unit.status).toBe(201);

    // The default server, half full at 2 places, has less room than the second (1 of 10)...
    expect((await platform(a, 'put', `/database-servers/${defaultId}`).send({ maxClients: 2 })).status).toBe(
      200,
    );
    beta = await provisionClient(a, sink, 'beta', { serverId: defaultId });
    // ...so the next client goes to the second, unless it drains.
    const drained = await platform(a, 'post', `/database-servers/${secondId}/drain`);
    expect(drained.status).toBe(200);
    expect(drained.body.data).toMatchObject({ state: 'draining', clients: 1 });
    const refused = await platform(a, 'post', '/clients').send({
      identifier: 'gamma',
      name: 'Gamma',
      contactEmail: 'admin@gamma.test',
      serverId: secondId,
    });
    expect(refused.status).toBe(409);
    const gamma = await platform(b, 'post', '/clients').send({
      identifier: 'gamma',
      name: 'Gamma',
      contactEmail: 'admin@gamma.test',
    });
    expect(gamma.status).toBe(201);
    expect(gamma.body.data.serverId).toBe(defaultId);
    const full = await platform(a, 'post', '/clients').send({
      identifier: 'delta',
      name: 'Delta',
      contactEmail: 'admin@delta.test',
    });
    expect(full.status).toBe(409);
    const unknown = await platform(a, 'post', '/clients').send({
      identifier: 'delta',
      name: 'Delta',
      contactEmail: 'admin@delta.test',
      serverId: 999999,
    });
    expect(unknown.status).toBe(400);
    expect((await platform(a, 'put', `/database-servers/${secondId}`).send({ state: 'active' })).status).toBe(
      200,
    );
    const auto = await platform(a, 'post', '/clients').send({
      identifier: 'delta',
      name: 'Delta',
      contactEmail: 'admin@delta.test',
    });
    expect(auto.body.data.serverId).toBe(secondId);
  });

  it('moves a client with its sandbox under a steady write load through two replicas, losing nothing acknowledged', async () => {
    const as = (token: string, schema?: string) => ({
      'X-Client-ID': 'beta',
      Authorization: `Bearer ${token}`,
      ...(schema ? { 'X-Tenant-ID': schema } : {}),
    });
    const sandbox = await a.http().post('/sandboxes').set(as(beta.adminToken)).send({ name: 'Training' });
    expect(sandbox.status).toBe(201);
    const inSandbox = await b
      .http()
      .post('/api/units')
      .set(as(beta.adminToken, 'sandbox_training'))
      .send({ name: 'Sandbox unit' });
    expect(inSandbox.status).toBe(201);

    const acknowledged: string[] = [];
    const refused: Record<string, number> = {};
    let reads = 0;
    let readsWhileMoving = 0;
    let moving = false;
    let writing = true;
    let afterMove = 0;
    let moved = false;
    const writer = async (t: TestApp, label: string) => {
      for (let i = 0; writing; i++) {
        const name = `${label}-${i}`;
        const res = await t.http().post('/api/units').set(as(beta.adminToken)).send({ name });
        if (res.status === 201) {
          acknowledged.push(name);
          if (moved) afterMove++;
        } else {
          const code = `${res.status} ${res.body?.error?.code}`;
          refused[code] = (refused[code] ?? 0) + 1;
          if (res.status === 503) expect(res.headers['retry-after']).toBeDefined();
        }
        await sleep(40);
      }
    };
    const reader = async (t: TestApp) => {
      while (writing) {
        const res = await t.http().get('/api/units?pageSize=1').set(as(beta.adminToken));
        if (res.status === 200) {
          reads++;
          if (moving) readsWhileMoving++;
        }
        await sleep(40);
      }
    };
    const load = Promise.all([writer(a, 'a'), writer(b, 'b'), reader(a), reader(b)]);
    await sleep(2000);

    const started = await platform(a, 'post', `/clients/${beta.id}/move`).send({ serverId: secondId });
    expect(started.status).toBe(202);
    const jobId = started.body.data.jobId;
    expect((await platform(b, 'post', `/clients/${beta.id}/move`).send({ serverId: secondId })).status).toBe(
      409,
    );
    moving = true;
    const steps = new Map<string, number>();
    const t0 = Date.now();
    let job: Record<string, unknown> = {};
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const res = await platform(b, 'get', `/moves/${jobId}`);
      expect(res.status).toBe(200);
      job = res.body.data;
      if (!steps.has(job.step as string)) steps.set(job.step as string, Date.now() - t0);
      if (job.status === 'done' || job.status === 'failed') break;
      await sleep(50);
    }
    moving = false;
    moved = true;
    expect(job).toMatchObject({
      status: 'done',
      step: 'finished',
      toServerId: secondId,
      fromServerId: defaultId,
    });
    await sleep(1500);
    writing = false;
    await load;

    expect(acknowledged.length - afterMove).toBeGreaterThan(5);
    expect(afterMove).toBeGreaterThan(0);
    expect(reads).toBeGreaterThan(0);
    // Writes refused during the pause, with nothing else going wrong.
    for (const code of Object.keys(refused))
      expect(code).toMatch(/^503 (CLIENT_MOVING|SERVICE_UNAVAILABLE)$/);

    const database = clientDatabase(a.masterDatabase, 'beta');
    // The copy is a database of the move's own name; the client's name follows it.
    const [{ copy }] = await sql<{ copy: string }>(
      a.masterDatabase,
      'SELECT database_name AS copy FROM clients WHERE id = $1',
      [beta.id],
    );
    expect(copy).toBe(`_${database}_m${(jobId as string).replace(/-/g, '').slice(0, 8)}`);
    const rows = await onSecond<{ name: string }>(second, copy, 'SELECT name FROM public.units');
    const stored = new Set(rows.map((r) => r.name));
    expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);

    const client = await platform(b, 'get', `/clients/${beta.id}`);
    expect(client.body.data).toMatchObject({ serverId: secondId, movingToServerId: null });
    for (const t of [a, b]) {
      const listed = await t.http().get('/api/units').set(as(beta.adminToken, 'sandbox_training'));
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).toContain('Sandbox unit');
    }

    // The former database is dropped after the grace period.
    const gone = Date.now() + 20_000;
    let left = 1;
    while (left && Date.now() < gone) {
      [{ n: left }] = await sql<{ n: number }>(
        a.masterDatabase,
        'SELECT count(*)::int AS n FROM pg_database WHERE datname = $1',
        [database],
      );
      if (left) await sleep(250);
    }
    expect(left).toBe(0);
    console.log(
      `move: ${acknowledged.length} writes acknowledged (${afterMove} after), refused ${JSON.stringify(refused)}, ` +
        `${readsWhileMoving} reads while moving, steps ${JSON.stringify(Object.fromEntries(steps))}, ` +
        `job ${Date.parse(job.finishedAt as string) - Date.parse(job.startedAt as string)} ms`,
    );
  });

  it('fails a move to a server it cannot reach, and resumes the writes on the source', async () => {
    const port = await freePort();
    const nowhere = await platform(a, 'post', '/database-servers').send({
      name: 'nowhere',
      host: '127.0.0.1',
      port,
      adminUsername: 'postgres',
    });
    // A server is identified when registered: one out of reach cannot be, yet.
    expect(nowhere.status).toBe(503);
    expect(nowhere.headers['retry-after']).toBeDefined();
    // One registered while it answered, down since.
    const [{ id: gone }] = await sql<{ id: number }>(
      a.masterDatabase,
      `INSERT INTO database_servers (name, host, port, admin_username, max_clients, max_connections, state)
       VALUES ('nowhere', '127.0.0.1', $1, 'postgres', 10, 100, 'active') RETURNING id`,
      [port],
    );
    const started = await platform(a, 'post', `/clients/${alpha.id}/move`).send({ serverId: gone });
    expect(started.status).toBe(202);
    let job: Record<string, unknown> = {};
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && job.status !== 'failed' && job.status !== 'done') {
      await sleep(100);
      job = (await platform(b, 'get', `/moves/${started.body.data.jobId}`)).body.data;
    }
    expect(job).toMatchObject({ status: 'failed', error: 'Database server unreachable (ECONNREFUSED)' });
    const client = await platform(a, 'get', `/clients/${alpha.id}`);
    expect(client.body.data).toMatchObject({ serverId: secondId, movingToServerId: null });
    for (const t of [a, b]) {
      // A replica hears of the resumption within moments; one that has not yet refuses (503).
      let status = 0;
      for (let tries = 0; status !== 201 && tries < 20; tries++) {
        if (tries) await sleep(100);
        const unit = await t
          .http()
          .post('/api/units')
          .set({ 'X-Client-ID': 'alpha', Authorization: `Bearer ${alpha.adminToken}` })
          .send({ name: 'After a failed move' });
        status = unit.status;
      }
      expect(status).toBe(201);
    }
    expect((await platform(a, 'get', '/moves/not-a-job')).status).toBe(404);
    expect((await platform(a, 'post', `/clients/${alpha.id}/move`).send({ serverId: secondId })).status).toBe(
      409,
    );
  });
});
