import { Client } from 'pg';
import { makeFleet } from '../../bench/tenants/fleet';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { databaseUrl } from '../support/test-env';
import { bootApp, login, superAdminToken, TestApp } from '../support/test-app';

const PROCESSES = 2;
const SERVER_MAX_CONNECTIONS = 6;
const BUDGET = SERVER_MAX_CONNECTIONS / PROCESSES;
const ENV = {
  TENANT_POOL_MAX: '3',
  // Far above the server's budget: only the budget can hold the connections down.
  TENANT_CONNECTION_CEILING: '20',
  TENANT_SERVER_PROCESSES: String(PROCESSES),
  TENANT_POOL_IDLE_MS: '4000',
  CLIENT_CACHE_REFRESH_MS: '300',
  // The outbox relay's passes would use the clients' connections too: the test counts them exactly.
  EVENT_RELAY_POLL_MS: '600000',
  EVENT_RELAY_FULL_SCAN_MS: '600000',
};

/**
 * Two processes of one deployment, a database server registered with maxConnections 6 and
 * TENANT_SERVER_PROCESSES 2: each process holds at most 3 connections to that server's clients,
 * whatever its ceiling, and work past the budget waits for one of them.
 */
describe('per-server connection budget', () => {
  let sink: SmtpSink;
  let a: TestApp;
  let b: TestApp;
  let ids: string[];
  let serverId: number;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    a = await bootApp({ env: { ...ENV, SMTP_URL: sink.url } });
    b = await bootApp({ masterDatabase: a.masterDatabase, env: { ...ENV, SMTP_URL: sink.url } });
    const fleet = await makeFleet(a, sink, 4, 'budget');
    ids = fleet.identifiers;
    await new Promise((r) => setTimeout(r, 1000)); // both registries pick up the cloned clients
    for (const id of ids)
      tokens.set(id, await login(a, fleet.first.adminEmail, fleet.first.adminPassword, id));
    const root = await superAdminToken(a);
    const [server] = (
      await a.http().get('/api/platform/database-servers').set('Authorization', `Bearer ${root}`)
    ).body.data;
    serverId = server.id;
    const updated = await a
      .http()
      .put(`/api/platform/database-servers/${server.id}`)
      .set('Authorization', `Bearer ${root}`)
      .send({ maxConnections: SERVER_MAX_CONNECTIONS });
    expect(updated.status).toBe(200);
    await new Promise((r) => setTimeout(r, 5000)); // connections of the set-up close (TENANT_POOL_IDLE_MS)
  }, 240_000); // an app or two and a fleet: slow on a loaded machine
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await sink?.stop();
  });

  const units = (app: TestApp, id: string) =>
    app
      .http()
      .get('/api/units')
      .set({ 'X-Client-ID': id, Authorization: `Bearer ${tokens.get(id)}` });

  const held = async () => {
    const [{ n }] = await sql<{ n: string }>(
      a.masterDatabase,
      `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE 'svc-platform:budget-%'`,
    );
    return Number(n);
  };
  const metric = async (app: TestApp, line: string) =>
    Number(
      new RegExp(`^${line.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(
        (await app.http().get('/metrics')).text,
      )?.[1],
    );

  /** Exclusive locks on every client's units table: list requests there keep their connection. */
  async function lockAllUnits(): Promise<() => Promise<void>> {
    const admins = await Promise.all(
      ids.map(async (id) => {
        const admin = new Client({ connectionString: databaseUrl(clientDatabase(a.masterDatabase, id)) });
        await admin.connect();
        await admin.query('BEGIN');
        await admin.query('LOCK TABLE units IN ACCESS EXCLUSIVE MODE');
        return admin;
      }),
    );
    return async () => {
      for (const admin of admins) {
        await admin.query('COMMIT');
        await admin.end();
      }
    };
  }

  it("keeps each process under its share of the server's maxConnections; work past it waits", async () => {
    expect(await metric(a, `tenant_server_connection_budget{server="${serverId}"}`)).toBe(BUDGET);
    expect(await held()).toBe(0);
    const unlock = await lockAllUnits();
    // Two requests per client and process: 16 would hold a connection under the ceiling alone.
    let requests: Promise<number | string>[] = [];
    let most = 0;
    let openInA = NaN;
    let openInB = NaN;
    // One sampling connection (not one per sample): waiters give up after 5 s, so the lock is short.
    const sampler = new Client({ connectionString: databaseUrl(a.masterDatabase) });
    await sampler.connect();
    const sample = async () => {
      const { rows } = await sampler.query(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE 'svc-platform:budget-%'`,
      );
      most = Math.max(most, Number(rows[0].n));
    };
    try {
      requests = [a, b].flatMap((app) =>
        ids.flatMap((id) =>
          [units(app, id), units(app, id)].map((r) =>
            r.then((res) => (res.status === 200 ? 200 : `${res.status} ${JSON.stringify(res.body)}`)),
          ),
        ),
      );
      // One after another: the sampler is a single connection.
      const fewMoreSamples = async () => {
        for (let i = 0; i < 5; i++) await sample();
      };
      const until = Date.now() + 4000;
      while (most < SERVER_MAX_CONNECTIONS && Date.now() < until) await sample();
      const gauge = `tenant_server_connections_open{server="${serverId}"}`;
      [openInA, openInB] = await Promise.all([
        metric(a, gauge),
        metric(b, gauge),
        fewMoreSamples(), // none may exceed the budgets
      ]);
    } finally {
      await unlock();
      await sampler.end();
    }
    expect([openInA, openInB]).toEqual([BUDGET, BUDGET]);
    expect(most).toBe(SERVER_MAX_CONNECTIONS);
    // Work past the budget waited; on a loaded machine a wait may pass its 5 s (503 with Retry-After).
    for (const status of await Promise.all(requests)) {
      if (status !== 200) expect(status).toMatch(/^503 .*No client database connection became free in time/);
    }
    // The room comes back: every client is served by both processes, still within the budgets.
    const again = await Promise.all([a, b].flatMap((app) => ids.map((id) => units(app, id))));
    expect(again.map((res) => res.status)).toEqual(again.map(() => 200));
    expect(await held()).toBeLessThanOrEqual(SERVER_MAX_CONNECTIONS);
  });

  it('follows a change of maxConnections that was not announced (a lost message) within the refresh', async () => {
    const budget = `tenant_server_connection_budget{server="${serverId}"}`;
    await sql(a.masterDatabase, 'UPDATE database_servers SET max_connections = $1 WHERE id = $2', [
      SERVER_MAX_CONNECTIONS * 2,
      serverId,
    ]);
    // Each process re-reads on its own timer: wait for both, not only the first to read.
    const budgets = () => Promise.all([metric(a, budget), metric(b, budget)]);
    const until = Date.now() + 5000;
    let seen = await budgets();
    while (Date.now() < until && seen.some((n) => n !== BUDGET * 2)) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await budgets();
    }
    expect(seen).toEqual([BUDGET * 2, BUDGET * 2]);
  });
});
