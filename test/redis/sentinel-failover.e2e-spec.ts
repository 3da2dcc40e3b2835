import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { Receiver } from '../webhooks/receiver';
import { SentinelGroup } from './sentinel-group';

interface Call {
  kind: 'write' | 'read';
  at: number;
  end: number;
  status: number;
  id?: number;
}

/** Requests succeed again within this long of the Sentinels naming the new primary. */
const RECOVERY_MS = 5000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The app with `REDIS_URL` naming a Sentinel group of the test's own, under light load (units
 * written, each sending a webhook through the outbox and the delivery queue): the primary is lost
 * and the Sentinels promote the replica.
 */
describe('Redis behind Sentinel: the primary fails over under load', () => {
  const group = new SentinelGroup();
  const receiver = new Receiver();
  const sink = new SmtpSink();
  let t: TestApp | undefined;
  let acme: ProvisionedClient;

  beforeAll(async () => {
    await Promise.all([group.start(), receiver.start(), sink.start()]);
    t = await bootApp({
      env: {
        REDIS_URL: group.url,
        SMTP_URL: sink.url,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        EVENT_RELAY_POLL_MS: '200',
        WEBHOOK_RETRY_DELAYS_MS: '500',
        WEBHOOK_SWEEP_INTERVAL_MS: '1000',
        AUTH_LOGIN_LIMIT_PER_IDENTIFIER: '5',
      },
    });
    acme = await provisionClient(t, sink, 'acme');
    const hook = await api('post', '/api/admin/webhooks').send({
      name: 'Failover',
      url: receiver.url('/hook'),
      events: ['unit.created'],
    });
    expect(hook.status).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await t?.close();
    await Promise.allSettled([group.stop(), receiver.stop(), sink.stop()]);
  });

  const api = (method: 'get' | 'post', path: string) =>
    t!
      .http()
      [method](path)
      .set({ 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` })
      .timeout(15_000);

  /** Five wrong passwords for a fresh identifier answer 401, the sixth 429. */
  const expectLoginLimit = async (identifier: string) => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t!.http().post('/auth/local').send({ identifier, password: 'wrong-password' });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  };

  /** Two writers (paced) and one reader, one request after another. */
  function lightLoad(calls: Call[]) {
    let running = true;
    let n = 0;
    const record = async (
      kind: Call['kind'],
      send: () => Promise<{ status: number; body: { data?: { id?: number } } }>,
    ) => {
      const at = Date.now();
      const res = await send().catch(() => ({ status: 0, body: { data: undefined } }));
      const id = kind === 'write' ? res.body?.data?.id : undefined;
      calls.push({ kind, at, end: Date.now(), status: res.status, id });
    };
    const loops = [
      ...[1, 2].map(async () => {
        while (running) {
          await record('write', () => api('post', '/api/units').send({ name: `Failover ${++n}` }));
          await sleep(100);
        }
      }),
      (async () => {
        while (running) {
          await record('read', () => api('get', '/api/units?pageSize=5'));
          await sleep(50);
        }
      })(),
    ];
    return async () => {
      running = false;
      await Promise.all(loops);
    };
  }

  it('keeps serving after the switch, delivers every acknowledged write, limits logins and reports Redis up', async () => {
    const health = await t!.http().get('/management/health');
    expect(health.status).toBe(200);
    expect(JSON.stringify(health.body)).not.toContain('"down"');
    await expectLoginLimit('before-failover@platform.test');
    const firstPrimary = await group.primaryPort();
    expect(firstPrimary).toBe(group.ports.primary);

    const calls: Call[] = [];
    const stop = lightLoad(calls);
    await sleep(2000);
    const lost = Date.now();
    await group.losePrimary();
    const switched = Date.now();
    await sleep(RECOVERY_MS + 3000);
    await stop();

    // Never a 500 nor a dropped connection; a call made while no primary answered may be a 503.
    const statuses = [...new Set(calls.map((c) => c.status))].sort();
    expect(statuses.filter((s) => ![200, 201, 503].includes(s))).toEqual([]);
    // Writes and reads succeed again within RECOVERY_MS of the promotion, and all the time after.
    for (const kind of ['write', 'read'] as const) {
      const after = calls.filter((c) => c.kind === kind && c.at >= switched + RECOVERY_MS);
      expect(after.length).toBeGreaterThan(3);
      expect(after.filter((c) => c.status >= 300)).toEqual([]);
    }
    expect(calls.filter((c) => c.at < lost && c.status >= 300)).toEqual([]);

    // Every acknowledged write, before, during and after the switch, reached the webhook.
    const acknowledged = calls.filter((c) => c.kind === 'write' && c.status === 201).map((c) => c.id!);
    expect(
      calls.filter((c) => c.kind === 'write' && c.status === 201 && c.end < lost).length,
    ).toBeGreaterThan(3);
    const delivered = () => new Set(receiver.received.map((r) => Number(r.body?.data?.attributes?.id)));
    const deadline = Date.now() + 30_000;
    while (acknowledged.some((id) => !delivered().has(id)) && Date.now() < deadline) await sleep(250);
    expect(acknowledged.filter((id) => !delivered().has(id))).toEqual([]);

    // The app writes to the promoted replica now, and its rate limits count there.
    const promoted = group.node(group.ports.replica);
    await promoted.connect();
    try {
      expect((await promoted.info('replication')).includes('role:master')).toBe(true);
      expect((await promoted.keys(`${t!.env.REDIS_PREFIX}:*`)).length).toBeGreaterThan(0);
    } finally {
      promoted.disconnect();
    }
    await expectLoginLimit('after-failover@platform.test');

    // Queues take new work: a client provisioned now goes through the provisioning queue.
    await provisionClient(t!, sink, 'beta');
    const healthAfter = await t!.http().get('/management/health');
    expect(healthAfter.status).toBe(200);
    expect(JSON.stringify(healthAfter.body)).not.toContain('"down"');
  }, 180_000);
});
