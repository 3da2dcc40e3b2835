import { FakeVendor } from '../support/fake-ai-vendor';
import { FakeInflux, InfluxPoint } from '../support/fake-influx';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { vendorEnv } from './ai-helpers';

/** The conversation log in InfluxDB 2 (AI_LOG_STORE=influxdb), against a peer speaking its APIs. */
describe('AI conversation log in InfluxDB 2', () => {
  let sink: SmtpSink;
  let fake: FakeVendor;
  let influx: FakeInflux;
  let t: TestApp;
  let acme: ProvisionedClient;

  const as = (token: string) => ({ 'X-Client-ID': 'acme', Authorization: `Bearer ${token}` });
  const get = (path: string) => t.http().get(path).set(as(acme.adminToken));
  const chat = (n: number, body: Record<string, unknown>) =>
    t
      .http()
      .post('/api/ai/chat')
      .set(as(acme.adminToken))
      .send({ messages: [{ role: 'user', content: 'private words' }], metadata: { n }, ...body });
  const exchanges = () => influx.points.filter((p) => p.measurement === 'ai_exchange');
  async function waitForPoints(count: number) {
    const deadline = Date.now() + 15000;
    while (exchanges().length < count) {
      if (Date.now() > deadline)
        throw new Error(`influx holds ${exchanges().length} exchanges, expected ${count}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return exchanges();
  }

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    fake = await new FakeVendor().start();
    influx = await new FakeInflux().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        ...vendorEnv(fake),
        AI_LOGGING_ENABLED: 'true',
        AI_LOG_STORE: 'influxdb',
        AI_LOG_INFLUX_URL: influx.url,
        AI_LOG_INFLUX_TOKEN: 'influx-token',
        AI_LOG_INFLUX_ORG: 'svc-org',
        AI_LOG_INFLUX_BUCKET: 'ai-log',
        AI_LOG_RETRY_MS: '300',
      },
    });
    acme = await provisionClient(t, sink, 'acme');
  });
  afterAll(async () => {
    await t?.close();
    await influx?.stop();
    await fake?.stop();
    await sink?.stop();
  });

  let points: InfluxPoint[] = [];

  it('writes one point per exchange, tagged with its client, never the text; a failed write is retried', async () => {
    influx.failWrites.push(503);
    await chat(1, { provider: 'openai', conversationId: 'c1' }).expect(200);
    await chat(2, { provider: 'anthropic', conversationId: 'c1' }).expect(200);
    await chat(3, { provider: 'gemini', conversationId: 'c2' }).expect(200);
    await chat(4, { provider: 'openai' }).expect(200);
    points = await waitForPoints(4);
    expect(points).toHaveLength(4);
    expect(JSON.stringify(points, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      'private words',
    );
    const write = influx.requests.find((r) => r.path.startsWith('/api/v2/write'))!;
    expect(write.path).toContain('org=svc-org');
    expect(write.path).toContain('bucket=ai-log');
    expect(write.authorization).toBe('Token influx-token');
    // The first write was answered 503; its exchanges came again in a later one.
    expect(influx.failWrites).toHaveLength(0);
    expect(influx.requests.filter((r) => r.path.startsWith('/api/v2/write')).length).toBeGreaterThan(1);
    const first = points.find((p) => p.fields.metadata === '{"n":1}')!;
    expect(first.tags).toMatchObject({
      client: 'acme',
      schema: 'public',
      provider: 'OPENAI',
      model: 'gpt-4o-mini',
      username: 'admin@acme.test',
      success: 'true',
    });
    expect(first.fields).toMatchObject({
      input_tokens: 11,
      output_tokens: 7,
      total_tokens: 18,
      conversation_id: 'c1',
    });
  });

  it('statistics come from Flux queries over the points', async () => {
    const stats = await get('/api/ai/stats').expect(200);
    expect(stats.body.data.statsByProvider).toEqual({
      OPENAI: { count: 2, totalTokens: 36 },
      ANTHROPIC: { count: 1, totalTokens: 18 },
      GEMINI: { count: 1, totalTokens: 20 },
    });
    const latencies = points
      .filter((p) => p.tags.model === 'gpt-4o-mini')
      .map((p) => Number(p.fields.latency_ms));
    expect(stats.body.data.latencyByModel['gpt-4o-mini'].avgMs).toBeCloseTo(
      (latencies[0] + latencies[1]) / 2,
      6,
    );

    const costs = await get('/api/ai/stats/costs').expect(200);
    const total = points.reduce((a, p) => a + Number(p.fields.cost), 0);
    expect(costs.body.data.costOverTime).toHaveLength(1);
    expect(costs.body.data.costOverTime[0].time).toMatch(/T00:00:00\.000Z$/);
    expect(costs.body.data.costOverTime[0].cost).toBeCloseTo(total, 10);
    expect(costs.body.data.costByUser).toEqual([
      { username: 'admin@acme.test', cost: expect.closeTo(total, 10) },
    ]);

    const conversations = await get('/api/ai/stats/conversations').expect(200);
    expect(conversations.body.data).toMatchObject({
      totalExchanges: 4,
      totalConversations: 2,
      windowSize: '1h',
    });
    expect(
      conversations.body.data.overTime.reduce((a: number, w: { exchanges: number }) => a + w.exchanges, 0),
    ).toBe(4);

    const mine = await get('/api/ai/stats/user/admin@acme.test?limit=2').expect(200);
    expect(mine.body.data.map((e: { metadata: { n: number } }) => e.metadata.n)).toEqual([4, 3]);
    expect(mine.body.data[1]).toMatchObject({
      provider: 'GEMINI',
      conversationId: 'c2',
      success: true,
      inputTokens: 17,
    });
    const queries = influx.requests.filter((r) => r.path.startsWith('/api/v2/query'));
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((q) => q.authorization === 'Token influx-token')).toBe(true);
  });
});
