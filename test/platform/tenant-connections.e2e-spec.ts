import { Client } from 'pg';
import { makeFleet } from '../../bench/tenants/fleet';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { databaseUrl } from '../support/test-env';
import { bootApp, login, TestApp } from '../support/test-app';

const CEILING = 3;
const ENV = {
  TENANT_POOL_MAX: '2',
  TENANT_CONNECTION_CEILING: String(CEILING),
  TENANT_POOL_QUEUE_MAX: '2',
  TENANT_POOL_IDLE_MS: '4000',
  CLIENT_CACHE_REFRESH_MS: '300',
  // The outbox relay's passes would use the clients' connections too: these tests count them exactly.
  EVENT_RELAY_POLL_MS: '600000',
  EVENT_RELAY_FULL_SCAN_MS: '600000',
};

describe('tenant connections', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let replica: TestApp;
  let ids: string[];
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { ...ENV, SMTP_URL: sink.url } });
    replica = await bootApp({ masterDatabase: t.masterDatabase, env: { ...ENV, SMTP_URL: sink.url } });
    const fleet = await makeFleet(t, sink, 6, 'conn');
    ids = fleet.identifiers;
    await new Promise((r) => setTimeout(r, 1000)); // both registries pick up the cloned clients
    for (const id of ids)
      tokens.set(id, await login(t, fleet.first.adminEmail, fleet.first.adminPassword, id));
    await sleepPastIdle();
  });
  afterAll(async () => {
    await replica?.close();
    await t?.close();
    await sink?.stop();
  });

  const units = (app: TestApp, id: string) =>
    app
      .http()
      .get('/api/units')
      .set({ 'X-Client-ID': id, Authorization: `Bearer ${tokens.get(id)}` });

  const held = async (id?: string) => {
    const [{ n }] = await sql<{ n: string }>(
      t.masterDatabase,
      `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE $1`,
      [id ? `svc-platform:${id}` : 'svc-platform:conn-%'],
    );
    return Number(n);
  };
  const metric = async (app: TestApp, line: string) =>
    Number(
      new RegExp(`^${line.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(
        (await app.http().get('/metrics')).text,
      )?.[1],
    );
  const sleepPastIdle = () => new Promise((r) => setTimeout(r, 5500));

  /** Holds an exclusive lock on a client's units table, so list requests there keep their connection. */
  async function lockUnits(id: string): Promise<() => Promise<void>> {
    const admin = new Client({ connectionString: databaseUrl(clientDatabase(t.masterDatabase, id)) });
    await admin.connect();
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE units IN ACCESS EXCLUSIVE MODE');
    return async () => {
      await admin.query('COMMIT');
      await admin.end();
    };
  }

  async function waitFor(check: () => Promise<boolean>) {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
  }

  it('makes room by closing idle connections, a spare one first, not whole clients; idle ones close after TENANT_POOL_IDLE_MS', async () => {
    const [a, b, c] = ids;
    const unlock = await lockUnits(a);
    const twoAtOnce = [units(t, a), units(t, a)].map((r) => r.then((res) => res.status));
    try {
      await waitFor(async () => (await held(a)) === 2);
    } finally {
      await unlock();
    }
    expect(await Promise.all(twoAtOnce)).toEqual([200, 200]);
    expect((await units(t, b)).status).toBe(200);
    const evictedBefore = await metric(t, 'tenant_connection_evictions_total{reason="ceiling"}');

    expect((await units(t, c)).status).toBe(200); // the ceiling (3) is full: one idle connection goes

    expect(await metric(t, 'tenant_connection_evictions_total{reason="ceiling"}')).toBe(evictedBefore + 1);
    expect([await held(a), await held(b), await held(c)]).toEqual([1, 1, 1]);
    expect(await metric(t, 'tenant_connections_open')).toBe(CEILING);

    await sleepPastIdle();
    expect(await held()).toBe(0);
    expect(await metric(t, 'tenant_connections_open')).toBe(0);
    expect(await metric(t, 'tenant_connection_evictions_total{reason="idle"}')).toBeGreaterThanOrEqual(3);
  });

  it("answers 503 with Retry-After when a client's wait queue is full, while another client is served", async () => {
    const [busy, other] = ids;
    const unlock = await lockUnits(busy);
    // TENANT_POOL_MAX (2) hold a connection, TENANT_POOL_QUEUE_MAX (2) wait for one.
    const waiting = Array.from({ length: 4 }, () => units(t, busy).then((res) => res.status));
    try {
      await waitFor(async () => (await held(busy)) === 2);
      await new Promise((r) => setTimeout(r, 200));

      const refused = await units(t, busy);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.body.error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect((await units(t, other)).status).toBe(200);
      // At least: the refused request (the record of its error may be refused the same way).
      expect(await metric(t, 'tenant_connection_waits_rejected_total')).toBeGreaterThanOrEqual(1);
    } finally {
      await unlock();
    }
    expect(await Promise.all(waiting)).toEqual([200, 200, 200, 200]);
  });

  it('keeps two replicas under their ceilings and max_connections while requests rotate over more clients', async () => {
    const [{ max }] = await sql<{ max: string }>(t.masterDatabase, 'SELECT current_setting($1) AS max', [
      'max_connections',
    ]);
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        most = Math.max(most, await held());
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const statuses: number[] = [];
    await Promise.all(
      [t, replica].flatMap((app) =>
        Array.from({ length: 4 }, async (_, lane) => {
          for (let round = 0; round < 6; round++) {
            statuses.push((await units(app, ids[(lane + round * 4) % ids.length])).status);
          }
        }),
      ),
    );
    sampling = false;
    await sampler;

    expect(statuses).toHaveLength(48);
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2 * CEILING);
    expect(2 * CEILING).toBeLessThan(Number(max));
    expect(await metric(t, 'tenant_connection_opens_total')).toBeGreaterThan(0);
    expect(await metric(replica, 'tenant_connections_open')).toBeLessThanOrEqual(CEILING);
  });
});
