import { randomUUID } from 'node:crypto';
import { REDIS_URL, runPrefix } from '../../test/support/test-env';
import { AppConfig } from '../config/app-config';
import { RetryLater } from './job-retries';
import { tenantContext } from './tenant-context';
import { TenantQueue, TenantQueueOptions } from './tenant-queue';

interface Work {
  key: number;
}

describe('TenantQueue', () => {
  const config = { REDIS_URL, REDIS_PREFIX: `${runPrefix()}_tq_${randomUUID().slice(0, 8)}` } as AppConfig;
  const acme = { identifier: 'acme', id: 7, isMaster: false };
  const inTenant = <R>(schema: string, work: () => R) =>
    tenantContext.run({ requestId: 'req-1', client: acme, schema }, work);
  const queues: TenantQueue<Work>[] = [];
  const open = (options: Omit<TenantQueueOptions<Work>, 'name'>) => {
    const queue = new TenantQueue<Work>(config, { name: `q-${queues.length}`, ...options });
    queues.push(queue);
    return queue;
  };

  afterAll(async () => {
    for (const queue of queues) await queue.onModuleDestroy();
  });

  it('names a job by its client and key, or client, schema and key, and queues it once', async () => {
    const perClient = open({ attempts: 1, dedup: { key: (w) => w.key, per: 'client' } });
    const perSchema = open({ attempts: 1, dedup: { key: (w) => w.key, per: 'schema' } });
    for (const queue of [perClient, perSchema]) {
      await inTenant('sandbox_qa', () => queue.add([{ key: 5 }], 60_000));
      await inTenant('sandbox_qa', () => queue.add([{ key: 5 }], 60_000));
      expect(await queue.queue.getJobCountByTypes(['delayed'])).toBe(1);
    }
    expect((await perClient.queue.getJob('acme:5'))?.data).toEqual({
      tenant: { client: acme, schema: 'sandbox_qa', requestId: 'req-1' },
      key: 5,
    });
    expect(await perSchema.queue.getJob('acme:sandbox_qa:5')).not.toBeNull();
    expect(await inTenant('sandbox_qa', () => perSchema.isLive(5))).toBe(true);
    expect(await inTenant('public', () => perSchema.isLive(5))).toBe(false);
  });

  it('needs a tenant context to queue', async () => {
    await expect(open({ attempts: 1 }).add([{ key: 1 }])).rejects.toThrow(/No tenant context/);
  });

  it('runs each job in the tenant that queued it and retries after the delay the processor threw', async () => {
    const queue = open({ attempts: 3, backoff: { retryLater: 'later' }, keepFinished: 10 });
    const seen: { schema: string; at: number }[] = [];
    queue.process(1, () => {
      seen.push({ schema: tenantContext.get().schema, at: Date.now() });
      return Promise.reject(seen.length < 2 ? new RetryLater(300) : new Error('gone'));
    });
    await inTenant('sandbox_qa', () => queue.add([{ key: 1 }]));
    for (let i = 0; i < 100 && (await queue.queue.getFailedCount()) === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen.map((s) => s.schema)).toEqual(['sandbox_qa', 'sandbox_qa', 'sandbox_qa']);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(300);
    const [failed] = await queue.queue.getFailed();
    expect(failed.attemptsMade).toBe(3);
  });

  it('closes at once when idle, and only after the job it is running', async () => {
    const idle = new TenantQueue<Work>(config, { name: 'close-idle', attempts: 1 });
    idle.process(1, async () => undefined);
    await idle.queue.isReady();
    await new Promise((r) => setTimeout(r, 200)); // waiting for its next job
    let started = Date.now();
    await idle.onModuleDestroy();
    // Bull's own close waits 500 ms for the waiting connection to answer QUIT.
    expect(Date.now() - started).toBeLessThan(400);

    const busy = new TenantQueue<Work>(config, { name: 'close-busy', attempts: 1 });
    let finished = false;
    let running!: () => void;
    const isRunning = new Promise<void>((r) => (running = r));
    busy.process(1, async () => {
      running();
      await new Promise((r) => setTimeout(r, 700));
      finished = true;
    });
    await inTenant('public', () => busy.add([{ key: 1 }]));
    await isRunning;
    started = Date.now();
    await busy.onModuleDestroy();
    expect(finished).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });
});
