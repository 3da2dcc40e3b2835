import { parseDatabaseUrl } from '../../src/database/data-source-factory';
import { OwnPostgres } from '../operations/own-services';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { ADMIN_URL } from '../support/test-env';
import { bootApp, ProvisionedClient, provisionClient, superAdminToken, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The test's own PostgreSQL under a second name (`localhost` for `127.0.0.1`) is one server: it
 * cannot be registered twice, and a move to it (through a row that escaped that check) is refused
 * before anything is dropped. Servers are labels, never addresses, in the API and the metrics.
 */
describe('database servers are told apart by what they are, not by their address', () => {
  const sink = new SmtpSink();
  const second = new OwnPostgres();
  const own = parseDatabaseUrl(ADMIN_URL);
  const alias = own.host === 'localhost' ? '127.0.0.1' : 'localhost';
  let a: TestApp;
  let root: string;
  let client: ProvisionedClient;
  let unitId: number;
  let defaultId: number;
  let secondId: number;
  const platform = (t: TestApp, method: 'get' | 'post', path: string) =>
    t.http()[method](`/api/platform${path}`).set('Authorization', `Bearer ${root}`);
  const asClient = () => ({ 'X-Client-ID': 'ident', Authorization: `Bearer ${client.adminToken}` });

  beforeAll(async () => {
    await Promise.all([sink.start(), second.create()]);
    a = await bootApp({ env: { SMTP_URL: sink.url, CLIENT_MOVE_SOURCE_GRACE_MS: '2000' } });
    root = await superAdminToken(a);
    client = await provisionClient(a, sink, 'ident');
    const unit = await a.http().post('/api/units').set(asClient()).send({ name: 'Kept through it all' });
    expect(unit.status).toBe(201);
    unitId = unit.body.data.id;
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await Promise.all([sink.stop(), second.destroy()]);
  });

  /** Moves the client to `serverId` and answers the finished job. */
  async function move(serverId: number): Promise<Record<string, unknown>> {
    const started = await platform(a, 'post', `/clients/${client.id}/move`).send({ serverId });
    expect(started.status).toBe(202);
    const deadline = Date.now() + 30_000;
    let job: Record<string, unknown> = {};
    while (Date.now() < deadline && job.status !== 'done' && job.status !== 'failed') {
      await sleep(100);
      job = (await platform(a, 'get', `/moves/${started.body.data.jobId}`)).body.data;
    }
    return job;
  }

  /** The unit is there, unchanged, and the client writes again on its own server. */
  async function expectDataKept() {
    const unit = await a.http().get(`/api/units/${unitId}`).set(asClient());
    expect(unit.status).toBe(200);
    expect(unit.body.data.name).toBe('Kept through it all');
    const view = await platform(a, 'get', `/clients/${client.id}`);
    expect(view.body.data).toMatchObject({ serverId: defaultId, movingToServerId: null });
    let status = 0;
    for (let tries = 0; status !== 201 && tries < 20; tries++) {
      if (tries) await sleep(100);
      status = (await a.http().post('/api/units').set(asClient()).send({ name: 'Still writing' })).status;
    }
    expect(status).toBe(201);
  }

  it('names the server of the environment "default" and labels metrics with ids, never an address', async () => {
    const listed = await platform(a, 'get', '/database-servers');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ name: 'default', isDefault: true })]);
    defaultId = listed.body.data[0].id;

    const metrics = (await a.http().get('/metrics')).text;
    expect(metrics).toContain(`tenant_server_connections_open{server="${defaultId}"}`);
    const labelValues = [...metrics.matchAll(/\w+="([^"]*)"/g)].map((m) => m[1]);
    expect(labelValues.filter((v) => /127\.0\.0\.1|localhost|:\d{4,5}$/.test(v))).toEqual([]);
  });

  it('renames a default server named after its address (by an earlier version) at start', async () => {
    await sql(a.masterDatabase, 'UPDATE database_servers SET name = $1 WHERE id = $2', [
      `${own.host}:${own.port}`,
      defaultId,
    ]);
    const b = await bootApp({ masterDatabase: a.masterDatabase, env: { SMTP_URL: sink.url } });
    try {
      const [row] = await sql<{ name: string }>(
        a.masterDatabase,
        'SELECT name FROM database_servers WHERE id = $1',
        [defaultId],
      );
      expect(row.name).toBe('default');
    } finally {
      await b.close();
    }
  });

  it('answers 409 CONFLICT to registering the same PostgreSQL under another host name', async () => {
    const again = await platform(a, 'post', '/database-servers').send({
      name: 'alias',
      host: alias,
      port: own.port,
      adminUsername: own.username,
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
    expect((await platform(a, 'get', '/database-servers')).body.data).toHaveLength(1);
  });

  it('refuses to move a client onto its own server known under another address, and keeps its data', async () => {
    // A row that escaped the check at registration (from before identities were kept: none stored).
    const [{ id: legacy }] = await sql<{ id: number }>(
      a.masterDatabase,
      `INSERT INTO database_servers (name, host, port, max_clients, max_connections, state)
       VALUES ('legacy-alias', $1, $2, 10, 100, 'active') RETURNING id`,
      [alias, own.port],
    );
    const refused = await move(legacy);
    expect(refused).toMatchObject({ status: 'failed' });
    expect(refused.error).toMatch(/PostgreSQL server the client is on/);
    await expectDataKept();

    // The same with an identity stored wrong (stale): the move reads the live ones.
    await sql(
      a.masterDatabase,
      `UPDATE database_servers SET system_identifier = '1', cluster_port = $2 WHERE id = $1`,
      [legacy, own.port],
    );
    const stale = await move(legacy);
    expect(stale).toMatchObject({ status: 'failed' });
    expect(stale.error).toMatch(/PostgreSQL server the client is on/);
    await expectDataKept();
  });

  it('refuses to move a client while it is being restored from a backup', async () => {
    const created = await platform(a, 'post', '/database-servers').send({
      name: 'second',
      host: '127.0.0.1',
      port: second.port,
      adminUsername: 'postgres',
    });
    expect(created.status).toBe(201);
    secondId = created.body.data.id;
    await sql(a.masterDatabase, 'UPDATE clients SET restoring_since = now() WHERE id = $1', [client.id]);
    try {
      const refused = await platform(a, 'post', `/clients/${client.id}/move`).send({ serverId: secondId });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toMatch(/being restored/);
    } finally {
      await sql(a.masterDatabase, 'UPDATE clients SET restoring_since = NULL WHERE id = $1', [client.id]);
    }
  });

  it('keeps the former database when the client is on it again under another address of its server', async () => {
    const source = clientDatabase(a.masterDatabase, 'ident');
    const moved = await move(secondId);
    expect(moved).toMatchObject({ status: 'done' });
    // Before the drop is due, the client is put back on its former database, through an alias of the
    // shared server (a second row for it, as an earlier version could leave).
    await sql(
      a.masterDatabase,
      `INSERT INTO database_servers (name, host, port, max_clients, max_connections, state)
       VALUES ('legacy-alias', $1, $2, 10, 100, 'active') ON CONFLICT DO NOTHING`,
      [alias, own.port],
    );
    await sql(
      a.masterDatabase,
      `UPDATE clients SET server_id = s.id, database_host = s.host, database_port = s.port, database_name = $2
         FROM database_servers s WHERE s.host = $3 AND s.port = $4 AND clients.id = $1`,
      [client.id, source, alias, own.port],
    );
    const dueAt = Date.parse(moved.sourceDropAt as string);
    await sleep(Math.max(0, dueAt - Date.now()) + 4000);
    const [{ n }] = await sql<{ n: number }>(
      a.masterDatabase,
      'SELECT count(*)::int AS n FROM pg_database WHERE datname = $1',
      [source],
    );
    expect(n).toBe(1);
  }, 60_000);
});
