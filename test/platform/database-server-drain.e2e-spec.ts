import { Client } from 'pg';
import { OwnPostgres } from '../operations/own-services';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, superAdminToken, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The databases of that cluster among `names`. */
async function databasesOn(pg: OwnPostgres, names: string[]): Promise<string[]> {
  const client = new Client({ connectionString: pg.adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname = ANY($1::text[])',
      [names],
    );
    return rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}

type Server = {
  id: number;
  clients: number;
  logicalReplication: boolean | null;
  totalSizeBytes: number | null;
  connections: number | null;
};

/**
 * Two PostgreSQL clusters of the test's own, one with wal_level = logical and one without, beside
 * the shared default server: what each server shows (wal_level, live size and sessions), and a
 * drain that moves every client off a server, one at a time, through another replica's worker.
 */
describe('database servers: wal_level, live usage and draining with moves', () => {
  const logical = new OwnPostgres({ wal_level: 'logical' });
  const plain = new OwnPostgres();
  const sink = new SmtpSink();
  let a: TestApp;
  let b: TestApp;
  let root: string;
  let defaultId: number;
  let logicalId: number;
  let plainId: number;
  const clients: ProvisionedClient[] = [];
  const env = () => ({ SMTP_URL: sink.url, CLIENT_MOVE_SOURCE_GRACE_MS: '1000' });
  const platform = (t: TestApp, method: 'get' | 'post' | 'put', path: string) =>
    t.http()[method](`/api/platform${path}`).set('Authorization', `Bearer ${root}`);
  const listed = async (t: TestApp) => {
    const res = await platform(t, 'get', '/database-servers');
    expect(res.status).toBe(200);
    return new Map((res.body.data as Server[]).map((s) => [s.id, s]));
  };
  const register = async (name: string, pg: OwnPostgres) => {
    const res = await platform(a, 'post', '/database-servers').send({
      name,
      host: '127.0.0.1',
      port: pg.port,
      adminUsername: 'postgres',
      maxClients: 10,
    });
    expect(res.status).toBe(201);
    return res.body.data as Server;
  };
  const readUnits = (t: TestApp, client: ProvisionedClient) =>
    t
      .http()
      .get('/api/units')
      .set({ 'X-Client-ID': client.identifier, Authorization: `Bearer ${client.adminToken}` });

  beforeAll(async () => {
    await Promise.all([logical.create(), plain.create(), sink.start()]);
    a = await bootApp({ env: env() });
    b = await bootApp({ masterDatabase: a.masterDatabase, env: env() });
    root = await superAdminToken(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await Promise.all([logical.destroy(), plain.destroy(), sink.stop()]);
  });

  it('shows whether each server runs with wal_level = logical, as read when it is registered and updated', async () => {
    const onLogical = await register('logical', logical);
    const onPlain = await register('plain', plain);
    logicalId = onLogical.id;
    plainId = onPlain.id;
    expect(onLogical.logicalReplication).toBe(true);
    expect(onPlain.logicalReplication).toBe(false);

    const servers = await listed(b);
    expect(servers.get(logicalId)?.logicalReplication).toBe(true);
    expect(servers.get(plainId)?.logicalReplication).toBe(false);
    defaultId = [...servers.values()].find((s) => s.id !== logicalId && s.id !== plainId)!.id;
    // The default server was identified at start, its wal_level with it.
    expect(typeof servers.get(defaultId)?.logicalReplication).toBe('boolean');

    const updated = await platform(a, 'put', `/database-servers/${plainId}`).send({ maxConnections: 50 });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ maxConnections: 50, logicalReplication: false });

    // A server whose wal_level was never read (a row older than the column) has it read when the
    // servers are identified again, as a registration does before it compares identities.
    await sql(a.masterDatabase, 'UPDATE database_servers SET logical_replication = NULL WHERE id = $1', [
      logicalId,
    ]);
    expect(
      (await platform(a, 'get', `/database-servers/${logicalId}`)).body.data.logicalReplication,
    ).toBeNull();
    const twice = await platform(a, 'post', '/database-servers').send({
      name: 'logical-again',
      host: 'localhost',
      port: logical.port,
      adminUsername: 'postgres',
    });
    expect(twice.status).toBe(409);
    expect((await platform(a, 'get', `/database-servers/${logicalId}`)).body.data.logicalReplication).toBe(
      true,
    );
  });

  it("shows each server's clients' size and open sessions, read live", async () => {
    // The default server takes no new client: the drain below can only move clients to `logical`.
    const drained = await platform(a, 'post', `/database-servers/${defaultId}/drain`);
    expect(drained.status).toBe(200);
    expect(drained.body.data).toMatchObject({ id: defaultId, state: 'draining' });
    for (const identifier of ['alpha', 'beta']) {
      const client = await provisionClient(a, sink, identifier, { serverId: plainId });
      const unit = await a
        .http()
        .post('/api/units')
        .set({ 'X-Client-ID': identifier, Authorization: `Bearer ${client.adminToken}` })
        .send({ name: `Unit of ${identifier}` });
      expect(unit.status).toBe(201);
      clients.push(client);
    }

    const servers = await listed(a);
    const onPlain = servers.get(plainId)!;
    expect(onPlain.clients).toBe(2);
    expect(onPlain.totalSizeBytes).toBeGreaterThan(1_000_000);
    // The replica's pools to alpha and beta are sessions on that server.
    expect(onPlain.connections).toBeGreaterThan(0);
    expect(servers.get(logicalId)).toMatchObject({ clients: 0, totalSizeBytes: 0 });
    expect(servers.get(logicalId)?.connections).toEqual(expect.any(Number));
    const one = await platform(b, 'get', `/database-servers/${plainId}`);
    expect(one.body.data.totalSizeBytes).toBeGreaterThan(1_000_000);
  });

  it('refuses a bad body, and answers 404 for the progress of a server never drained with moves', async () => {
    for (const body of [{ moveClients: 'yes' }, { moveClients: true, extra: 1 }]) {
      const res = await platform(a, 'post', `/database-servers/${plainId}/drain`).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await platform(a, 'get', `/database-servers/${logicalId}/drain`)).status).toBe(404);
    // The default server was drained without moves: that has no progress either.
    expect((await platform(a, 'get', `/database-servers/${defaultId}/drain`)).status).toBe(404);
    expect((await platform(a, 'get', '/database-servers/999999/drain')).status).toBe(404);
    expect(
      (await platform(a, 'post', '/database-servers/999999/drain').send({ moveClients: true })).status,
    ).toBe(404);
    const server = await platform(a, 'get', `/database-servers/${plainId}`);
    expect(server.body.data).toMatchObject({ state: 'active', clients: 2 });
  });

  it('drains a server with moves: its clients are moved one at a time, and a second drain is refused', async () => {
    const started = await platform(a, 'post', `/database-servers/${plainId}/drain`).send({
      moveClients: true,
    });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({
      serverId: plainId,
      moveClients: true,
      status: 'running',
      total: 2,
      moved: 0,
      failed: 0,
      remaining: 2,
      finishedAt: null,
      failures: [],
    });
    const again = await platform(b, 'post', `/database-servers/${plainId}/drain`).send({ moveClients: true });
    expect(again.status).toBe(409);
    expect((await platform(b, 'get', `/database-servers/${plainId}`)).body.data.state).toBe('draining');

    const jobs = new Set<string>();
    let drain: Record<string, unknown> = {};
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const res = await platform(b, 'get', `/database-servers/${plainId}/drain`);
      expect(res.status).toBe(200);
      drain = res.body.data;
      if (drain.currentJobId) jobs.add(drain.currentJobId as string);
      if (drain.status !== 'running') break;
      await sleep(100);
    }
    expect(drain).toMatchObject({
      serverId: plainId,
      status: 'done',
      total: 2,
      moved: 2,
      failed: 0,
      remaining: 0,
      currentClientId: null,
      currentJobId: null,
      failures: [],
    });
    expect(Date.parse(drain.finishedAt as string)).toBeGreaterThanOrEqual(
      Date.parse(drain.startedAt as string),
    );
    // Each client had a move of its own, which ended before the next began.
    expect(jobs.size).toBe(2);
    for (const jobId of jobs) {
      const job = await platform(a, 'get', `/moves/${jobId}`);
      expect(job.body.data).toMatchObject({ status: 'done', fromServerId: plainId, toServerId: logicalId });
    }
    const [first, second] = await Promise.all(
      [...jobs].map(async (jobId) => (await platform(a, 'get', `/moves/${jobId}`)).body.data),
    );
    const [earlier, later] = [first, second].sort(
      (x, y) => Date.parse(x.startedAt) - Date.parse(y.startedAt),
    );
    expect(Date.parse(later.startedAt)).toBeGreaterThanOrEqual(Date.parse(earlier.finishedAt));

    const servers = await listed(a);
    expect(servers.get(plainId)).toMatchObject({ clients: 0 });
    expect(servers.get(logicalId)).toMatchObject({ clients: 2 });
    for (const client of clients) {
      const moved = await platform(a, 'get', `/clients/${client.id}`);
      expect(moved.body.data).toMatchObject({ serverId: logicalId, movingToServerId: null });
      for (const t of [a, b]) {
        const units = await readUnits(t, client);
        expect(units.status).toBe(200);
        expect(JSON.stringify(units.body)).toContain(`Unit of ${client.identifier}`);
      }
    }
  });

  it('records a client that cannot be placed as failed and goes on with the next', async () => {
    // Every other server drains: the clients of `logical` have nowhere to go.
    const started = await platform(b, 'post', `/database-servers/${logicalId}/drain`).send({
      moveClients: true,
    });
    expect(started.status).toBe(202);
    let drain: Record<string, unknown> = started.body.data;
    const deadline = Date.now() + 30_000;
    while (drain.status === 'running' && Date.now() < deadline) {
      await sleep(100);
      drain = (await platform(a, 'get', `/database-servers/${logicalId}/drain`)).body.data;
    }
    expect(drain).toMatchObject({ status: 'failed', total: 2, moved: 0, failed: 2, remaining: 0 });
    expect(drain.failures).toEqual(
      clients.map((c) => ({
        clientId: c.id,
        identifier: c.identifier,
        error: 'No active database server has room for a client',
      })),
    );
    for (const client of clients) expect((await readUnits(a, client)).status).toBe(200);
  });

  it('shows no usage for a server that is down, without failing or slowing the list', async () => {
    // The moves drop the databases they left on `plain` after their grace period; then it stops.
    const former = clients.map((c) => clientDatabase(a.masterDatabase, c.identifier));
    const gone = Date.now() + 30_000;
    while ((await databasesOn(plain, former)).length && Date.now() < gone) await sleep(250);
    expect(await databasesOn(plain, former)).toEqual([]);
    await plain.stop();
    const t0 = Date.now();
    const servers = await listed(a);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(servers.get(plainId)).toMatchObject({
      totalSizeBytes: null,
      connections: null,
      logicalReplication: false,
    });
    expect(servers.get(logicalId)?.totalSizeBytes).toBeGreaterThan(1_000_000);
    const one = await platform(b, 'get', `/database-servers/${plainId}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ totalSizeBytes: null, connections: null });
  });
});
