import { randomUUID } from 'node:crypto';
import { REDIS_URL, runPrefix } from '../../test/support/test-env';
import { AppConfig } from '../config/app-config';
import { FairTenantQueue } from './fair-tenant-queue';
import { tenantContext } from './tenant-context';

interface Work {
  key: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('FairTenantQueue', () => {
  const config = { REDIS_URL, REDIS_PREFIX: `${runPrefix()}_fq_${randomUUID().slice(0, 8)}` } as AppConfig;
  const client = (identifier: string) => ({ identifier, id: 1, isMaster: false });
  const as = <R>(identifier: string, work: () => R) =>
    tenantContext.run({ requestId: 'req', client: client(identifier), schema: 'public' }, work);
  const queues: FairTenantQueue<Work>[] = [];
  const open = (cap: number, lockMs = 60_000) => {
    const queue = new FairTenantQueue<Work>(config, {
      name: `fq-${queues.length}`,
      dedup: { key: (w) => w.key, per: 'schema' },
      attempts: 2,
      backoff: { fixedMs: 10 },
      lockMs,
      maxInFlightPerClient: cap,
      tickMs: 100,
    });
    queues.push(queue);
    return queue;
  };

  afterAll(async () => {
    for (const queue of queues) await queue.onModuleDestroy();
  });

  it('holds at most the cap of a client in Bull, and serves the clients in turn', async () => {
    const queue = open(2);
    await as('acme', () => queue.add(Array.from({ length: 20 }, (_, i) => ({ key: i }))));
    await as('acme', () => queue.add([{ key: 3 }])); // queued once
    await as('beta', () => queue.add([{ key: 0 }]));
    expect(await queue.queue.getWaitingCount()).toBe(3);
    expect(await queue.backlog()).toBe(18);
    expect(await as('acme', () => queue.isLive(19))).toBe(true);

    const order: string[] = [];
    queue.process(1, ({ key }) => {
      order.push(`${tenantContext.get().client.identifier}:${key}`);
      return sleep(5);
    });
    await as('gamma', () => queue.add([{ key: 7 }]));
    while (order.length < 22) await sleep(20);
    // beta's first job goes ahead of acme's second, queued before it; so does gamma's, queued while
    // acme's first job ran.
    expect(order.slice(0, 2)).toEqual(['acme:0', 'beta:0']);
    expect(order.indexOf('gamma:7')).toBeLessThanOrEqual(3);
    expect(order.indexOf('gamma:7')).toBeLessThan(order.indexOf('acme:2'));
    expect(order.filter((o) => o.startsWith('acme'))).toEqual(
      Array.from({ length: 20 }, (_, i) => `acme:${i}`),
    );
    expect(await queue.backlog()).toBe(0);
  });

  it("puts another client's first job ahead of every waiting job but one of a client at its cap", async () => {
    const queue = open(4);
    await as('acme', () => queue.add(Array.from({ length: 8 }, (_, i) => ({ key: i }))));
    await as('beta', () => queue.add([{ key: 0 }, { key: 1 }]));
    const order: string[] = [];
    queue.process(1, ({ key }) => {
      order.push(`${tenantContext.get().client.identifier}:${key}`);
      return sleep(5);
    });
    while (order.length < 10) await sleep(20);
    expect(order.slice(0, 4)).toEqual(['acme:0', 'beta:0', 'acme:1', 'beta:1']);
    expect(order.filter((o) => o.startsWith('acme'))).toEqual(
      Array.from({ length: 8 }, (_, i) => `acme:${i}`),
    );
  });

  it('frees a place only after the last attempt, and runs a failed attempt again', async () => {
    const queue = open(1);
    const runs: number[] = [];
    queue.process(2, ({ key }) => {
      runs.push(key);
      return runs.filter((k) => k === key).length === 1 && key === 1
        ? Promise.reject(new Error('once'))
        : sleep(5);
    });
    await as('acme', () => queue.add([{ key: 1 }, { key: 2 }]));
    while (runs.length < 3) await sleep(20);
    expect(runs).toEqual([1, 1, 2]);
  });

  it('adds again a job counted in flight that never reached Bull (a process died after the pick)', async () => {
    const queue = open(1, 200);
    const redis = queue.queue.client;
    const base = `${config.REDIS_PREFIX}:fair:${queue.queue.name}`;
    const tenant = { client: client('acme'), schema: 'public', requestId: 'req' };
    await redis.zadd(`${base}:inflight:acme`, Date.now() - 1000, 'acme:public:9');
    await redis.sadd(`${base}:clients`, 'acme');
    await redis.hset(`${base}:payload`, 'acme:public:9', JSON.stringify({ tenant, key: 9 }));
    const runs: number[] = [];
    queue.process(1, ({ key }) => Promise.resolve(void runs.push(key)));
    while (!runs.length) await sleep(20);
    expect(runs).toEqual([9]);
    await sleep(50);
    expect(await redis.zcard(`${base}:inflight:acme`)).toBe(0);
    expect(await redis.hlen(`${base}:payload`)).toBe(0);
  });
});
