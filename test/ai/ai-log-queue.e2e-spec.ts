import Redis from 'ioredis';
import { Client } from 'pg';
import { FakeVendor } from '../support/fake-ai-vendor';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { databaseUrl, REDIS_URL } from '../support/test-env';
import { exchangeRows, vendorEnv, waitForExchanges } from './ai-helpers';

const RETRY_MS = 300;

/** The log hand-off (a Redis stream read by the workers' group): retries, gone workers, bad entries. */
describe('AI exchange log queue', () => {
  let sink: SmtpSink;
  let fake: FakeVendor;
  let t: TestApp;
  let acme: ProvisionedClient;
  let redis: Redis;
  let pg: Client;
  let key: string;
  let n = 0;

  const headers = () => ({ 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` });
  const chat = (extra: Record<string, string> = {}) =>
    t
      .http()
      .post('/api/ai/chat')
      .set({ ...headers(), ...extra })
      .send({ provider: 'openai', messages: [{ role: 'user', content: 'Hi' }], metadata: { n: ++n } })
      .expect(200);
  /** An entry as the API queues it, in acme's production schema. */
  const entry = (id: string, exchange: Record<string, unknown> = {}) =>
    JSON.stringify({
      tenant: { client: { identifier: 'acme', id: null, isMaster: false }, schema: 'public', requestId: 'r' },
      exchange: {
        id,
        occurredAt: new Date().toISOString(),
        userId: null,
        username: 'queued@acme.test',
        companyId: null,
        provider: 'OPENAI',
        model: 'gpt-4o-mini',
        inputTokens: 3,
        outputTokens: 4,
        totalTokens: 7,
        estimatedCost: 0,
        latencyMs: 5,
        conversationId: null,
        metadata: null,
        success: true,
        ...exchange,
      },
    });
  const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const settled = async (what: () => Promise<boolean>, timeoutMs = 10000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await what())) {
      if (Date.now() > deadline) throw new Error('not settled in time');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    fake = await new FakeVendor().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        ...vendorEnv(fake),
        AI_LOGGING_ENABLED: 'true',
        AI_LOG_RETRY_MS: String(RETRY_MS),
        AI_RATE_LIMIT_PER_USER: '1000',
      },
    });
    acme = await provisionClient(t, sink, 'acme');
    redis = new Redis(REDIS_URL);
    pg = new Client({ connectionString: databaseUrl(`${t.masterDatabase}_acme`) });
    await pg.connect();
    key = `${t.masterDatabase}:ai:exchanges`;
  });
  afterAll(async () => {
    await pg?.end();
    redis?.disconnect();
    await t?.close();
    await fake?.stop();
    await sink?.stop();
  });

  it('a chat leaves one stream entry that the worker writes, acknowledges and deletes', async () => {
    await chat();
    const rows = await waitForExchanges(t, 'acme', 1);
    expect(rows[0]).toMatchObject({ provider: 'OPENAI', metadata: { n: 1 } });
    await settled(async () => (await redis.xlen(key)) === 0);
    expect(await redis.xpending(key, 'writers')).toEqual([0, null, null, null]);
    const metrics = (await t.http().get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^ai_log_backlog 0$/m);
  });

  it('exchanges the store refused are written once it takes them again, other tenants meanwhile', async () => {
    const before = (await exchangeRows(t, 'acme')).length;
    await t.http().post('/sandboxes').set(headers()).send({ name: 'Queue' }).expect(201);
    await pg.query('ALTER TABLE public.ai_exchanges RENAME TO ai_exchanges_away');
    try {
      await chat();
      await chat();
      await chat({ 'X-Tenant-ID': 'sandbox_queue' });
      // The sandbox's exchange is written while production's wait.
      await settled(
        async () =>
          (await pg.query('SELECT count(*)::int AS n FROM sandbox_queue.ai_exchanges')).rows[0].n === 1,
      );
      await new Promise((r) => setTimeout(r, RETRY_MS * 2));
      expect((await pg.query('SELECT count(*)::int AS n FROM ai_exchanges_away')).rows[0].n).toBe(before);
      expect(await redis.xlen(key)).toBe(2);
      const metrics = (await t.http().get('/metrics').expect(200)).text;
      expect(metrics).toMatch(/^ai_log_backlog 2$/m);
    } finally {
      await pg.query('ALTER TABLE public.ai_exchanges_away RENAME TO ai_exchanges');
    }
    const rows = await waitForExchanges(t, 'acme', before + 2);
    expect(rows.slice(-2).map((r) => (r.metadata as { n: number }).n)).toEqual([n - 2, n - 1]);
    await settled(async () => (await redis.xlen(key)) === 0);
  });

  it('an entry taken by a worker that died before writing it is written by another', async () => {
    const before = (await exchangeRows(t, 'acme')).length;
    // A consumer that reads and never acknowledges: a worker killed mid-batch. MULTI keeps the live
    // worker's blocked read from taking the entry first.
    const [[, id], [, taken]] = (await redis
      .multi()
      .xadd(key, '*', 'e', entry(uuid(1)))
      .xreadgroup('GROUP', 'writers', 'gone-worker', 'COUNT', 10, 'STREAMS', key, '>')
      .exec()) as [[null, string], [null, [string, [string, string[]][]][]]];
    expect(taken[0][1].map(([entryId]) => entryId)).toEqual([id]);
    const rows = await waitForExchanges(t, 'acme', before + 1);
    expect(rows.find((r) => r.id === uuid(1))).toMatchObject({
      username: 'queued@acme.test',
      total_tokens: 7,
    });
    await settled(async () => (await redis.xlen(key)) === 0);
  });

  it('drops unreadable entries, and an exchange the store refuses holds back none of its batch', async () => {
    const before = (await exchangeRows(t, 'acme')).length;
    const badTenant = JSON.stringify({
      tenant: { client: { identifier: 'acme' }, schema: 'public; DROP TABLE users', requestId: 'r' },
      exchange: { id: uuid(9) },
    });
    await redis
      .multi()
      .xadd(key, '*', 'e', 'not json')
      .xadd(key, '*', 'other', 'field')
      .xadd(key, '*', 'e', badTenant)
      .xadd(key, '*', 'e', entry(uuid(2)))
      .xadd(key, '*', 'e', entry(uuid(3), { inputTokens: 'many' }))
      .xadd(key, '*', 'e', entry(uuid(4)))
      .exec();
    const rows = await waitForExchanges(t, 'acme', before + 2);
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining([uuid(2), uuid(4)]));
    expect(rows.map((r) => r.id)).not.toContain(uuid(3));
    // The refused one stays queued (tried again, never lost); the unreadable ones are gone.
    await settled(async () => (await redis.xlen(key)) === 1);
    const [[, fields]] = await redis.xrange(key, '-', '+');
    expect(JSON.parse(fields[1]).exchange.id).toBe(uuid(3));
    await redis.del(key);
  });

  it('recreates its group when the stream was deleted, and goes on', async () => {
    const before = (await exchangeRows(t, 'acme')).length;
    await redis.del(key);
    await chat();
    await waitForExchanges(t, 'acme', before + 1);
  });
});
