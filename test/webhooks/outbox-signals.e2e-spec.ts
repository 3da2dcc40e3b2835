import { randomUUID } from 'node:crypto';
import { OutboxRelay } from '../../src/events/outbox-relay';
import { OutboxSignals } from '../../src/events/outbox-signals';
import { RedisService } from '../../src/redis/redis.service';
import { TenantPools } from '../../src/tenancy/tenant-pools';
import { WebhookQueue } from '../../src/webhooks/webhook-queue';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { Receiver, until } from './receiver';

const BASE_ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  EVENT_RELAY_POLL_MS: '200',
  // Minutes: a prompt delivery below comes from the signal, never from the sweep.
  EVENT_RELAY_FULL_SCAN_MS: '600000',
  // Nor may the delivery sweep's one visit after activity land inside the idle check below.
  WEBHOOK_SWEEP_INTERVAL_MS: '600000',
};

describe('outbox signals', () => {
  let sink: SmtpSink;
  let receiver: Receiver;
  let t: TestApp;
  let acme: ProvisionedClient;

  const api = (method: 'get' | 'post', path: string) =>
    t.http()[method](path).set('X-Client-ID', 'acme').set('Authorization', `Bearer ${acme.adminToken}`);
  const acmeDatabase = () => clientDatabase(t.masterDatabase, 'acme');
  /** An outbox row written straight into the table, as if its commit's signal had been lost. */
  const insertUnsignalled = async (name: string) => {
    await sql(
      acmeDatabase(),
      `INSERT INTO event_outbox (event_id, event, entity_type, entity_id, company_id, attributes, metadata)
       VALUES ($1, 'unit.created', 'Unit', 1, NULL, $2, '{}')`,
      [randomUUID(), JSON.stringify({ name })],
    );
  };
  const outboxCount = async () =>
    Number((await sql<{ n: string }>(acmeDatabase(), 'SELECT count(*) AS n FROM event_outbox'))[0].n);
  const acmeConnections = async () =>
    Number(
      (
        await sql<{ n: string }>(
          t.masterDatabase,
          `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'svc-platform:acme'`,
          [acmeDatabase()],
        )
      )[0].n,
    );
  const receivedNames = (path: string) => receiver.at(path).map((r) => r.body.data.attributes.name as string);

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    receiver = await new Receiver().start();
    t = await bootApp({ env: { ...BASE_ENV, SMTP_URL: sink.url } });
    acme = await provisionClient(t, sink, 'acme');
    const hook = await api('post', '/api/admin/webhooks').send({
      name: 'Units',
      url: receiver.url('/units'),
      events: ['unit.created'],
    });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    await sink?.stop();
  });

  it('relays a committed event at once, through its signal', async () => {
    const sentAt = Date.now();
    expect((await api('post', '/api/units').send({ name: 'Signalled' })).status).toBe(201);
    const [got] = await receiver.waitFor('/units', 1, 5000);
    expect(got.body.data.attributes.name).toBe('Signalled');
    expect(got.at - sentAt).toBeLessThan(2000);
  });

  it('relays an event signalled by another process, and reports its age until then', async () => {
    const signals = t.app.get(OutboxSignals);
    const redis = t.app.get(RedisService);
    const lockKey = redis.key('outbox', 'lock', 'acme');
    // Another relay holds the tenant: the event waits, and the gauge shows how long. Taken the way a
    // relay takes it (only when free), so a drain of the previous test still in flight finishes first.
    await until(
      () => redis.client.set(lockKey, 'elsewhere', 'PX', 30_000, 'NX'),
      (taken) => taken === 'OK',
      10_000,
    );
    try {
      await insertUnsignalled('From elsewhere');
      await signals.signal('acme', Date.now() - 60_000);
      await new Promise((r) => setTimeout(r, 600));
      expect(await outboxCount()).toBe(1);
      const metrics = (await t.http().get('/metrics')).text;
      const oldest = Number(/^outbox_oldest_pending_seconds (\S+)$/m.exec(metrics)?.[1]);
      expect(oldest).toBeGreaterThanOrEqual(60);
    } finally {
      await redis.client.del(lockKey);
    }
    const started = Date.now();
    await until(
      async () => receivedNames('/units'),
      (names) => names.includes('From elsewhere'),
      5000,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await outboxCount()).toBe(0);
    const metrics = (await t.http().get('/metrics')).text;
    expect(Number(/^outbox_oldest_pending_seconds (\S+)$/m.exec(metrics)?.[1])).toBe(0);
    expect(Number(/^outbox_relay_lag_seconds_count (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(2);
  });

  it('leaves an idle client without a connection', async () => {
    // Deliveries of the previous tests may still be finishing (a delivery records its result after
    // the receiver answered) and reopen the pool: close until no event nor job is left and nothing
    // reopened.
    const deliveries = t.app.get(WebhookQueue).queue;
    const relay = t.app.get(OutboxRelay);
    await until(
      async () => {
        await relay.idle(); // a relay's drain makes the first attempts itself
        const jobs = await deliveries.getJobCounts();
        await t.app.get(TenantPools).close('acme');
        await new Promise((r) => setTimeout(r, 300));
        const settled = jobs.active + jobs.waiting + jobs.delayed === 0 && (await outboxCount()) === 0;
        return settled ? acmeConnections() : -1;
      },
      (n) => n === 0,
      15_000,
    );
    await new Promise((r) => setTimeout(r, 2000)); // ten polling ticks
    // The connections' last statements, so that a failure names what opened one.
    const opened = await sql<{ query: string }>(
      t.masterDatabase,
      `SELECT query FROM pg_stat_activity WHERE datname = $1 AND application_name = 'svc-platform:acme'`,
      [acmeDatabase()],
    );
    expect(opened).toEqual([]);
    expect(t.app.get(TenantPools).openClients()).not.toContain('acme');
  });

  it('relays an event whose signal was lost through the sweep, once across replicas', async () => {
    await insertUnsignalled('Lost signal');
    await new Promise((r) => setTimeout(r, 1000));
    expect(receivedNames('/units')).not.toContain('Lost signal');
    const sweeping = await bootApp({
      masterDatabase: t.masterDatabase,
      env: { ...BASE_ENV, SMTP_URL: sink.url, EVENT_RELAY_FULL_SCAN_MS: '500' },
    });
    try {
      await until(
        async () => receivedNames('/units'),
        (names) => names.includes('Lost signal'),
        10_000,
      );
      // Both replicas relay while units are created on each: every event arrives once.
      const replicas = [t, sweeping];
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          replicas[i % 2]
            .http()
            .post('/api/units')
            .set('X-Client-ID', 'acme')
            .set('Authorization', `Bearer ${acme.adminToken}`)
            .send({ name: `Replica ${i}` }),
        ),
      );
      expect(created.map((r) => r.status)).toEqual(Array(20).fill(201));
      await until(
        async () => receivedNames('/units').filter((n) => n.startsWith('Replica ')),
        (names) => names.length >= 20,
        10_000,
      );
      await new Promise((r) => setTimeout(r, 500));
      const names = receivedNames('/units');
      expect(new Set(names).size).toBe(names.length);
      expect(await outboxCount()).toBe(0);
    } finally {
      await sweeping.close();
    }
  });
});
