import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { clientDatabase } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { runPrefix } from '../support/test-env';
import { Receiver } from '../webhooks/receiver';
import { OwnPostgres, OwnRedis } from './own-services';

interface Call {
  kind: 'write' | 'read' | 'ready';
  at: number;
  end: number;
  status: number;
  id?: number;
}

const OUTAGE_MS = 4000;
const RECOVERY_MS = 5000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An app on its own PostgreSQL cluster and Redis, under steady reads and writes with a webhook on
 * every unit created: each dependency is stopped for a few seconds and started again.
 */
describe('fault drill: PostgreSQL and Redis go away and come back', () => {
  const pg = new OwnPostgres();
  const redis = new OwnRedis();
  const receiver = new Receiver();
  const sink = new SmtpSink();
  let t: TestApp | undefined;
  let acme: ProvisionedClient;
  let master: string;

  beforeAll(async () => {
    master = `${runPrefix()}_drill`;
    await Promise.all([pg.create(), redis.start(), receiver.start(), sink.start()]);
    t = await bootApp({
      masterDatabase: master,
      env: {
        DATABASE_URL: pg.url(master),
        REDIS_URL: redis.url,
        MULTITENANCY_DB_HOST: '127.0.0.1',
        MULTITENANCY_DB_PORT: String(pg.port),
        SMTP_URL: sink.url,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        EVENT_RELAY_POLL_MS: '200',
        WEBHOOK_RETRY_DELAYS_MS: '500',
        WEBHOOK_SWEEP_INTERVAL_MS: '1000',
      },
    });
    acme = await provisionClient(t, sink, 'acme');
    const hook = await api('post', '/api/admin/webhooks').send({
      name: 'Drill',
      url: receiver.url('/hook'),
      events: ['unit.created'],
    });
    expect(hook.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await Promise.allSettled([pg.destroy(), redis.stop(), receiver.stop(), sink.stop()]);
    await rm(join(tmpdir(), master), { recursive: true, force: true });
  });

  const api = (method: 'get' | 'post', path: string) =>
    t!
      .http()
      [method](path)
      .set({ 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` })
      .timeout(10_000);

  /** Writers and readers one request after another, and a readiness probe every 200 ms. */
  function steadyLoad(calls: Call[]) {
    let running = true;
    let n = 0;
    const record = async (
      kind: Call['kind'],
      send: () => Promise<{ status: number; body: { data?: { id?: number } } }>,
    ) => {
      const at = Date.now();
      const res = await send().catch(() => ({ status: 0, body: { data: undefined } }));
      calls.push({
        kind,
        at,
        end: Date.now(),
        status: res.status,
        id: kind === 'write' ? res.body?.data?.id : undefined,
      });
    };
    const loops = [
      ...[1, 2, 3].map(async () => {
        // Paced (about 50 writes a second in all), under the per-client event and delivery budgets.
        while (running) {
          await record('write', () => api('post', '/api/units').send({ name: `Drill ${++n}` }));
          await sleep(50);
        }
      }),
      ...[1, 2].map(async () => {
        while (running) await record('read', () => api('get', '/api/units?pageSize=5'));
      }),
      (async () => {
        while (running) {
          await record('ready', () => t!.http().get('/management/health/readiness').timeout(5000));
          await sleep(200);
        }
      })(),
    ];
    return async () => {
      running = false;
      await Promise.all(loops);
    };
  }

  /** First moment after `since` from which every request of `kind` succeeded. */
  const recoveredAt = (calls: Call[], kind: Call['kind'], since: number) => {
    const after = calls.filter((c) => c.kind === kind && c.at >= since).sort((a, b) => a.at - b.at);
    const lastFailure = after.filter((c) => c.status >= 300 || c.status === 0).pop();
    const firstGood = after.find((c) => c.status < 300 && (!lastFailure || c.at > lastFailure.at));
    return firstGood?.at ?? Infinity;
  };

  it('answers 503 while the database is away, stays ready without Redis, recovers, and loses nothing', async () => {
    const calls: Call[] = [];
    const stop = steadyLoad(calls);
    await sleep(1500);

    const pgDown = Date.now();
    await pg.stop();
    const pgStopped = Date.now();
    await sleep(OUTAGE_MS);
    const pgStarting = Date.now();
    await pg.start();
    const pgUp = Date.now();
    await sleep(RECOVERY_MS + 1000);

    const redisDown = Date.now();
    await redis.stop();
    await sleep(OUTAGE_MS);
    await redis.start();
    const redisUp = Date.now();
    await sleep(RECOVERY_MS + 1000);
    await stop();

    /** Calls made and answered within the window. */
    const during = (from: number, to: number, kind?: Call['kind']) =>
      calls.filter((c) => c.at >= from && c.end < to && (!kind || c.kind === kind));
    const statuses = (list: Call[]) => [...new Set(list.map((c) => c.status))].sort();

    // Never a 500, nor a dropped connection.
    expect(statuses(calls).filter((s) => s >= 500 && s !== 503)).toEqual([]);
    expect(calls.filter((c) => c.status === 0)).toEqual([]);
    // The database away: API calls and readiness answer 503.
    const pgAway = during(pgStopped, pgStarting);
    expect(statuses(pgAway.filter((c) => c.kind !== 'ready'))).toEqual([503]);
    expect(statuses(pgAway.filter((c) => c.kind === 'ready'))).toEqual([503]);
    // Redis away: readiness stays 200.
    expect(statuses(during(redisDown, redisUp, 'ready'))).toEqual([200]);
    // Back within 5 s of each return.
    for (const kind of ['write', 'read', 'ready'] as const) {
      expect(recoveredAt(calls, kind, pgDown) - pgUp).toBeLessThan(RECOVERY_MS);
      expect(recoveredAt(calls, kind, redisDown) - redisUp).toBeLessThan(RECOVERY_MS);
    }

    // Every acknowledged write is in the database and reached the webhook.
    const acknowledged = calls.filter((c) => c.kind === 'write' && c.status === 201).map((c) => c.id!);
    expect(acknowledged.length).toBeGreaterThan(20);
    const db = new Client({ connectionString: pg.url(clientDatabase(master, 'acme')) });
    await db.connect();
    const stored = new Set(
      (await db.query<{ id: number }>('SELECT id FROM units')).rows.map((r) => Number(r.id)),
    );
    await db.end();
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    const delivered = () => new Set(receiver.received.map((r) => Number(r.body?.data?.attributes?.id)));
    const deadline = Date.now() + 15_000;
    while (acknowledged.some((id) => !delivered().has(id)) && Date.now() < deadline) await sleep(250);
    expect(acknowledged.filter((id) => !delivered().has(id))).toEqual([]);
  }, 90_000);
});
