import { createUser, loginFull } from '../identity/identity-helpers';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { exchangeRows, percentileCont, vendorEnv, waitForExchanges } from './ai-helpers';
import { ANSWER, FakeVendor } from '../support/fake-ai-vendor';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- rows as PostgreSQL returns them

/** The conversation log: one row per exchange (no text), statistics computed by SQL, roles, the rate. */
describe('AI conversation log and statistics', () => {
  let sink: SmtpSink;
  let fake: FakeVendor;
  let t: TestApp;
  let acme: ProvisionedClient;
  const tokens: Record<'manager' | 'operator' | 'far' | 'limited', string> = {} as never;
  const emails = {
    manager: 'manager@acme.test',
    operator: 'operator@acme.test',
    far: 'far@acme.test',
    limited: 'limited@acme.test',
  };
  const latencyOf = new Map<number, number>();
  let rows: Row[] = [];

  const as = (token: string) => ({ 'X-Client-ID': 'acme', Authorization: `Bearer ${token}` });
  const get = (path: string, token = acme.adminToken) => t.http().get(path).set(as(token));
  const hello = [{ role: 'user', content: 'Hi there, secret question' }];
  const chat = async (
    status: number,
    n: number,
    body: Record<string, unknown>,
    token = acme.adminToken,
    app = t,
  ) => {
    const res = await app
      .http()
      .post('/api/ai/chat')
      .set(as(token))
      .send({ messages: hello, metadata: { n }, ...body })
      .expect(status);
    if (res.status === 200 && !body.stream) latencyOf.set(n, res.body.data.latencyMs);
    return res;
  };

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    fake = await new FakeVendor().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        ...vendorEnv(fake),
        AI_LOGGING_ENABLED: 'true',
        AI_RETRY_BASE_DELAY_MS: '5',
        AI_RATE_LIMIT_PER_USER: '1000',
      },
    });
    acme = await provisionClient(t, sink, 'acme');
    const company = await get('/api/admin/companies').expect(200);
    const elsewhere = await t
      .http()
      .post('/api/admin/companies')
      .set(as(acme.adminToken))
      .send({ name: 'Elsewhere' })
      .expect(201);
    void company;
    const password = 'User-password-1';
    const roles = { manager: 'MANAGER', operator: 'OPERATOR', far: 'MANAGER', limited: 'OPERATOR' } as const;
    for (const key of Object.keys(roles) as (keyof typeof roles)[]) {
      const companyId = key === 'far' ? elsewhere.body.data.id : undefined;
      await createUser(
        t,
        acme.adminToken,
        { email: emails[key], password, role: roles[key], companyId },
        'acme',
      );
      tokens[key] = (await loginFull(t, emails[key], password, 'acme')).body.jwt;
    }
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
    await sink?.stop();
  });

  it('logs one row per exchange, off the request path, without message text', async () => {
    await chat(200, 1, { provider: 'openai', conversationId: 'c1' });
    await chat(200, 2, { provider: 'openai', conversationId: 'c1', model: 'gpt-4o' });
    await chat(200, 3, { provider: 'anthropic', conversationId: 'c2' });
    await chat(200, 4, { provider: 'gemini' });
    await chat(200, 5, { provider: 'ollama', conversationId: 'c1', stream: true });
    fake.plan('azure', { status: 500 }, { status: 500 }, { status: 500 });
    await chat(502, 6, { provider: 'azure-openai', conversationId: 'c3' });
    await chat(200, 7, { provider: 'openai', conversationId: 'op' }, tokens.operator);
    await chat(200, 8, { provider: 'ollama', conversationId: 'far' }, tokens.far);

    rows = await waitForExchanges(t, 'acme', 8);
    expect(rows).toHaveLength(8);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('secret question');
    expect(text).not.toContain(ANSWER);
    const byN = new Map(rows.map((r) => [r.metadata.n as number, r]));
    expect(byN.get(1)).toMatchObject({
      username: 'admin@acme.test',
      provider: 'OPENAI',
      model: 'gpt-4o-mini',
      input_tokens: 11,
      output_tokens: 7,
      total_tokens: 18,
      conversation_id: 'c1',
      success: true,
    });
    expect(byN.get(6)).toMatchObject({
      provider: 'AZURE_OPENAI',
      success: false,
      total_tokens: 0,
      conversation_id: 'c3',
    });
    expect(byN.get(4)!.conversation_id).toBeNull();
    for (const [n, latency] of latencyOf) expect(byN.get(n)!.latency_ms).toBe(latency);
    expect(byN.get(2)!.cost).toBeCloseTo((11 * 2.5 + 7 * 10) / 1e6, 10);
  });

  it('stats: counts and tokens by provider and model, latency by model, exactly as logged', async () => {
    const res = await get('/api/ai/stats').expect(200);
    const expected = (key: string) => {
      const out: Record<string, { count: number; totalTokens: number }> = {};
      for (const r of rows) {
        const e = (out[r[key]] ??= { count: 0, totalTokens: 0 });
        e.count++;
        e.totalTokens += r.total_tokens;
      }
      return out;
    };
    expect(res.body.data.statsByProvider).toEqual(expected('provider'));
    expect(res.body.data.statsByModel).toEqual(expected('model'));
    const models = [...new Set(rows.map((r) => r.model as string))];
    expect(Object.keys(res.body.data.latencyByModel).sort()).toEqual(models.sort());
    for (const model of models) {
      const latencies = rows.filter((r) => r.model === model).map((r) => r.latency_ms as number);
      const { avgMs, p95Ms } = res.body.data.latencyByModel[model];
      expect(avgMs).toBeCloseTo(latencies.reduce((a, b) => a + b, 0) / latencies.length, 6);
      expect(p95Ms).toBeCloseTo(percentileCont(latencies, 0.95), 6);
    }
    const span = Date.parse(res.body.data.endTime) - Date.parse(res.body.data.startTime);
    expect(span).toBe(30 * 86400000);

    const past = await get(
      '/api/ai/stats?startTime=2020-01-01T00:00:00Z&endTime=2020-02-01T00:00:00Z',
    ).expect(200);
    expect(past.body.data).toEqual({
      startTime: '2020-01-01T00:00:00.000Z',
      endTime: '2020-02-01T00:00:00.000Z',
      statsByProvider: {},
      statsByModel: {},
      latencyByModel: {},
    });
  });

  it('costs: over UTC windows, by provider, by user highest first', async () => {
    const res = await get('/api/ai/stats/costs?windowSize=1d').expect(200);
    const sum = (list: Row[]) => list.reduce((a, r) => a + r.cost, 0);
    const providers = [...new Set(rows.map((r) => r.provider as string))];
    expect(Object.keys(res.body.data.costByProvider).sort()).toEqual(providers.sort());
    for (const p of providers) {
      expect(res.body.data.costByProvider[p]).toBeCloseTo(sum(rows.filter((r) => r.provider === p)), 10);
    }
    const days = [...new Set(rows.map((r) => new Date(r.occurred_at).toISOString().slice(0, 10)))].sort();
    expect(res.body.data.costOverTime.map((c: { time: string }) => c.time)).toEqual(
      days.map((d) => `${d}T00:00:00.000Z`),
    );
    expect(res.body.data.costOverTime.reduce((a: number, c: { cost: number }) => a + c.cost, 0)).toBeCloseTo(
      sum(rows),
      10,
    );
    const users = [...new Set(rows.map((r) => r.username as string))]
      .map((username) => ({ username, cost: sum(rows.filter((r) => r.username === username)) }))
      .sort((a, b) => b.cost - a.cost);
    expect(res.body.data.costByUser.map((u: { username: string }) => u.username)).toEqual(
      users.map((u) => u.username),
    );
    res.body.data.costByUser.forEach((u: { cost: number }, i: number) =>
      expect(u.cost).toBeCloseTo(users[i].cost, 10),
    );

    const top = await get('/api/ai/stats/costs?userLimit=1').expect(200);
    expect(top.body.data.costByUser).toHaveLength(1);
    expect(top.body.data.costByUser[0].username).toBe(users[0].username);

    const bad = await get('/api/ai/stats/costs?windowSize=1week').expect(400);
    expect(bad.body.error.details[0].field).toBe('windowSize');
  });

  it('conversations: exchanges and distinct conversation ids over hourly windows', async () => {
    const res = await get('/api/ai/stats/conversations').expect(200);
    const ids = new Set(rows.map((r) => r.conversation_id).filter((c) => c !== null));
    expect(res.body.data).toMatchObject({
      windowSize: '1h',
      totalExchanges: 8,
      totalConversations: ids.size,
    });
    const hours = new Map<string, Row[]>();
    for (const r of rows) {
      const hour = new Date(r.occurred_at).toISOString().slice(0, 13) + ':00:00.000Z';
      hours.set(hour, [...(hours.get(hour) ?? []), r]);
    }
    expect(res.body.data.overTime).toEqual(
      [...hours.entries()].sort().map(([time, list]) => ({
        time,
        exchanges: list.length,
        conversations: new Set(list.map((r) => r.conversation_id).filter((c) => c !== null)).size,
      })),
    );
    expect(Date.parse(res.body.data.endTime) - Date.parse(res.body.data.startTime)).toBe(7 * 86400000);
  });

  it("a user's exchanges newest first, with the metadata and conversation id sent", async () => {
    const res = await get('/api/ai/stats/user/admin@acme.test?limit=3').expect(200);
    const admins = rows.filter((r) => r.username === 'admin@acme.test').reverse();
    expect(res.body.data.map((e: { metadata: { n: number } }) => e.metadata.n)).toEqual(
      admins.slice(0, 3).map((r) => r.metadata.n),
    );
    expect(res.body.data[0]).toEqual({
      id: admins[0].id,
      occurredAt: new Date(admins[0].occurred_at).toISOString(),
      userId: admins[0].user_id,
      username: 'admin@acme.test',
      companyId: admins[0].company_id,
      provider: 'AZURE_OPENAI',
      model: 'chat-deployment',
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      estimatedCost: 0,
      latencyMs: admins[0].latency_ms,
      conversationId: 'c3',
      metadata: { n: 6 },
      success: false,
    });
  });

  it('roles: stats need MANAGER; anyone with ai:read sees their own exchanges only', async () => {
    await get('/api/ai/stats', tokens.operator).expect(403);
    await get('/api/ai/stats/costs', tokens.operator).expect(403);
    await get('/api/ai/stats/conversations', tokens.operator).expect(403);
    const own = await get(`/api/ai/stats/user/${emails.operator}`, tokens.operator).expect(200);
    expect(own.body.data.map((e: { metadata: { n: number } }) => e.metadata.n)).toEqual([7]);
    await get('/api/ai/stats/user/admin@acme.test', tokens.operator).expect(403);
    await get('/api/ai/stats', tokens.manager).expect(200);
    await get(`/api/ai/stats/user/${emails.operator}`, tokens.manager).expect(200);
  });

  it("a manager of another company sees only that company's exchanges", async () => {
    const res = await get('/api/ai/stats', tokens.far).expect(200);
    expect(res.body.data.statsByProvider).toEqual({ OLLAMA: { count: 1, totalTokens: 27 } });
    const theirs = await get('/api/ai/stats/user/admin@acme.test', tokens.far).expect(200);
    expect(theirs.body.data).toEqual([]);
  });

  it('the per-user chat rate is counted in Redis, across replicas', async () => {
    const replica = await bootApp({
      masterDatabase: t.masterDatabase,
      env: { ...t.env, ...vendorEnv(fake), GEMINI_API_KEY: '', AI_RATE_LIMIT_PER_USER: '3' },
    });
    try {
      const providers = await get('/api/ai/providers').expect(200);
      expect(providers.body.data.loggingEnabled).toBe(true);
      const onReplica = await replica
        .http()
        .get('/api/ai/providers/gemini')
        .set(as(tokens.limited))
        .expect(200);
      expect(onReplica.body.data.available).toBe(false);
      const gemini = await chat(400, 20, { provider: 'gemini' }, tokens.limited, replica);
      expect(gemini.body.error.code).toBe('PROVIDER_NOT_AVAILABLE');

      await chat(200, 21, { provider: 'openai' }, tokens.limited);
      await chat(200, 22, { provider: 'openai' }, tokens.limited);
      await chat(200, 23, { provider: 'openai' }, tokens.limited, replica);
      const limited = await chat(429, 24, { provider: 'openai' }, tokens.limited, replica);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Another user still has their own allowance.
      await chat(200, 25, { provider: 'openai' }, tokens.manager, replica);
      const logged = await waitForExchanges(t, 'acme', 12);
      expect(logged.filter((r) => r.username === emails.limited)).toHaveLength(3);
    } finally {
      await replica.close();
    }
  });

  it('an exchange queued by an API-only replica is written by a worker after that replica is gone', async () => {
    const before = (await exchangeRows(t, 'acme')).length;
    const api = await bootApp({
      masterDatabase: t.masterDatabase,
      env: { ...t.env, QUEUE_PROCESSORS_ENABLED: 'false' },
    });
    await chat(200, 30, { provider: 'anthropic', conversationId: 'late' }, acme.adminToken, api);
    await api.close();
    const after = await waitForExchanges(t, 'acme', before + 1);
    expect(after.find((r) => (r.metadata as { n: number }).n === 30)).toMatchObject({
      provider: 'ANTHROPIC',
      conversation_id: 'late',
    });
  });
  it('a chat in a sandbox is logged in that sandbox, and its statistics see only it', async () => {
    await t.http().post('/sandboxes').set(as(acme.adminToken)).send({ name: 'Trial' }).expect(201);
    const inSandbox = { ...as(acme.adminToken), 'X-Tenant-ID': 'sandbox_trial' };
    await t
      .http()
      .post('/api/ai/chat')
      .set(inSandbox)
      .send({ provider: 'gemini', messages: hello, metadata: { n: 40 } })
      .expect(200);
    const deadline = Date.now() + 15000;
    let stats: { statsByProvider: Record<string, { count: number }> } | undefined;
    while (Date.now() < deadline) {
      const res = await t.http().get('/api/ai/stats').set(inSandbox).expect(200);
      stats = res.body.data;
      if (Object.keys(stats!.statsByProvider).length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(stats!.statsByProvider).toEqual({ GEMINI: { count: 1, totalTokens: 20 } });
    const production = await exchangeRows(t, 'acme');
    expect(production.some((r) => (r.metadata as { n: number }).n === 40)).toBe(false);
  });
});
