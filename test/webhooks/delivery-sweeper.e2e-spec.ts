import { RedisService } from '../../src/redis/redis.service';
import { TenantPools } from '../../src/tenancy/tenant-pools';
import { DeliveryActivity } from '../../src/webhooks/delivery-activity';
import { DeliverySweeper } from '../../src/webhooks/delivery-sweeper';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { Receiver, until } from './receiver';

describe('delivery sweeper', () => {
  let sink: SmtpSink;
  let receiver: Receiver;
  let t: TestApp;
  let busy: ProvisionedClient;

  const api = (client: ProvisionedClient, method: 'post', path: string) =>
    t
      .http()
      [method](path)
      .set('X-Client-ID', client.identifier)
      .set('Authorization', `Bearer ${client.adminToken}`);
  const idleConnections = async () =>
    Number(
      (
        await sql<{ n: string }>(
          t.masterDatabase,
          `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'svc-platform:idle'`,
          [clientDatabase(t.masterDatabase, 'idle')],
        )
      )[0].n,
    );

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    receiver = await new Receiver().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        // The timer never fires during the test: it calls the sweeps itself.
        WEBHOOK_SWEEP_INTERVAL_MS: '60000',
      },
    });
    busy = await provisionClient(t, sink, 'busy');
    await provisionClient(t, sink, 'idle');
    const hook = await api(busy, 'post', '/api/admin/webhooks').send({
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

  it('sweeps and purges only clients with deliveries, and a full pass finds the ones whose marks were lost', async () => {
    const activity = t.app.get(DeliveryActivity);
    const sweeper = t.app.get(DeliverySweeper);
    const pools = t.app.get(TenantPools);
    expect((await api(busy, 'post', '/api/units').send({ name: 'Swept' })).status).toBe(201);
    await receiver.waitFor('/units', 1, 5000);
    expect([...(await activity.clients('pending')).keys()]).toEqual(['busy']);
    expect([...(await activity.clients('retained')).keys()]).toEqual(['busy']);

    // Delivered: once its newest delivery is older than a sweep interval, a sweep finds nothing
    // pending and the client leaves the pending set; it stays in the purge's.
    const redis = t.app.get(RedisService);
    const busyDb = clientDatabase(t.masterDatabase, 'busy');
    await until(
      async () => (await sql(busyDb, `SELECT 1 FROM webhook_deliveries WHERE status = 'SUCCESS'`)).length,
      (n) => n === 1,
      5000,
    );
    await redis.client.zadd(
      redis.key('webhooks', 'delivery-clients', 'pending'),
      Date.now() - 120_000,
      'busy',
    );
    await pools.close('idle');
    await sweeper.sweepAll();
    await sweeper.purgeAll();
    expect((await activity.clients('pending')).size).toBe(0);
    expect([...(await activity.clients('retained')).keys()]).toEqual(['busy']);
    expect(pools.openClients()).not.toContain('idle');
    expect(await idleConnections()).toBe(0);

    // Marks lost (Redis emptied) and a delivery left pending: the full pass marks busy again, and
    // the next sweep re-enqueues the delivery.
    await redis.client.del(
      redis.key('webhooks', 'delivery-clients', 'pending'),
      redis.key('webhooks', 'delivery-clients', 'retained'),
    );
    await sql(
      busyDb,
      `UPDATE webhook_deliveries SET status = 'PENDING', next_attempt_at = now() - interval '2 minutes',
         created_at = now() - interval '2 minutes'`,
    );
    expect(await sweeper.fullPass()).toEqual(['busy']);
    expect([...(await activity.clients('pending')).keys()]).toEqual(['busy']);
    expect([...(await activity.clients('retained')).keys()]).toEqual(['busy']);
    expect(await sweeper.sweepAll()).toBe(1);
    await receiver.waitFor('/units', 2, 5000);
  });
});
