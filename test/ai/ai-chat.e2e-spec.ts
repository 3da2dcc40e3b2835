import http from 'node:http';
import { AddressInfo } from 'node:net';
import { createUser, loginFull } from '../identity/identity-helpers';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { parseSse, vendorEnv } from './ai-helpers';
import { ANSWER, FakeVendor, PIECES, USAGE, Vendor } from '../support/fake-ai-vendor';

/** Chat against a fake vendor speaking each wire format: whole and streamed answers, errors, retries. */
describe('AI chat', () => {
  let sink: SmtpSink;
  let fake: FakeVendor;
  let t: TestApp;
  let acme: ProvisionedClient;
  let viewerToken: string;

  const as = (token: string) => ({ 'X-Client-ID': 'acme', Authorization: `Bearer ${token}` });
  const chat = (body: Record<string, unknown>, token = acme.adminToken) =>
    t.http().post('/api/ai/chat').set(as(token)).send(body);
  const hello = [{ role: 'user', content: 'Hi there' }];

  const PROVIDERS: [string, Vendor, string][] = [
    ['openai', 'openai', 'gpt-4o-mini'],
    ['anthropic', 'anthropic', 'claude-3-5-haiku-latest'],
    ['gemini', 'gemini', 'gemini-2.0-flash'],
    ['azure-openai', 'azure', 'chat-deployment'],
    ['ollama', 'ollama', 'llama3.2'],
  ];

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    fake = await new FakeVendor().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        ...vendorEnv(fake),
        AI_TIMEOUT_MS: '600',
        AI_MAX_RETRIES: '2',
        AI_RETRY_BASE_DELAY_MS: '10',
        AI_MODEL_PRICES: JSON.stringify({ 'chat-deployment': [2, 8] }),
      },
    });
    acme = await provisionClient(t, sink, 'acme');
    const viewer = { email: 'viewer@acme.test', password: 'Viewer-password-1', role: 'VIEWER' as const };
    await createUser(t, acme.adminToken, viewer, 'acme');
    viewerToken = (await loginFull(t, viewer.email, viewer.password, 'acme')).body.jwt;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
    await sink?.stop();
  });
  beforeEach(() => fake.clear());

  it.each(PROVIDERS)(
    '%s: a whole answer with the vendor usage and the price table',
    async (code, vendor, model) => {
      const res = await chat({
        provider: code.toUpperCase(),
        messages: [...hello, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'More' }],
        systemPrompt: 'Be brief',
        temperature: 0.5,
        maxTokens: 64,
      }).expect(200);
      const { input, output } = USAGE[vendor];
      const prices: Record<string, [number, number]> = {
        'gpt-4o-mini': [0.15, 0.6],
        'claude-3-5-haiku-latest': [0.8, 4],
        'gemini-2.0-flash': [0.1, 0.4],
        'chat-deployment': [2, 8],
        'llama3.2': [0, 0],
      };
      const [pin, pout] = prices[model];
      expect(res.body.data).toEqual({
        content: ANSWER,
        provider: code.toUpperCase().replace('-', '_'),
        model,
        inputTokens: input,
        outputTokens: output,
        totalTokens: input + output,
        estimatedCost: expect.closeTo((input * pin + output * pout) / 1e6, 10),
        latencyMs: expect.any(Number),
      });
      expect(fake.seen).toHaveLength(1);
      const sent = fake.seen[0];
      expect(sent.vendor).toBe(vendor);
      if (vendor === 'openai') {
        expect(sent.url).toBe('/v1/chat/completions');
        expect(sent.headers.authorization).toBe('Bearer sk-openai-test');
        expect(sent.body).toMatchObject({ model, temperature: 0.5, max_tokens: 64 });
        expect(sent.body.messages[0]).toEqual({ role: 'system', content: 'Be brief' });
        expect(sent.body.messages).toHaveLength(4);
      } else if (vendor === 'azure') {
        expect(sent.url).toBe('/openai/deployments/chat-deployment/chat/completions?api-version=2024-10-21');
        expect(sent.headers['api-key']).toBe('azure-test-key');
        expect(sent.body.messages[0]).toEqual({ role: 'system', content: 'Be brief' });
      } else if (vendor === 'anthropic') {
        expect(sent.url).toBe('/v1/messages');
        // The SDK sends the key as X-Api-Key or as a bearer credential, depending on its version.
        expect(sent.headers['x-api-key'] ?? sent.headers.authorization).toMatch(/sk-anthropic-test$/);
        expect(sent.headers['anthropic-version']).toBeDefined();
        expect(sent.body).toMatchObject({ model, system: 'Be brief', temperature: 0.5, max_tokens: 64 });
        expect(sent.body.messages.map((m: { role: string }) => m.role)).toEqual([
          'user',
          'assistant',
          'user',
        ]);
      } else if (vendor === 'gemini') {
        expect(sent.url).toBe(`/v1beta/models/${model}:generateContent`);
        expect(sent.headers['x-goog-api-key']).toBe('gemini-test-key');
        expect(sent.body.contents.map((c: { role: string }) => c.role)).toEqual(['user', 'model', 'user']);
        expect(sent.body.systemInstruction.parts[0].text).toBe('Be brief');
        expect(sent.body.generationConfig).toMatchObject({ temperature: 0.5, maxOutputTokens: 64 });
      } else {
        expect(sent.url).toBe('/api/chat');
        expect(sent.body).toMatchObject({
          model,
          stream: false,
          options: { temperature: 0.5, num_predict: 64 },
        });
        expect(sent.body.messages[0]).toEqual({ role: 'system', content: 'Be brief' });
      }
    },
  );

  it.each(PROVIDERS)(
    '%s: stream:true answers Server-Sent Events, deltas then the result',
    async (code, vendor, model) => {
      const res = await chat({ provider: code, messages: hello, stream: true })
        .buffer(true)
        .parse((r, done) => {
          let text = '';
          r.on('data', (c: Buffer) => (text += c.toString()));
          r.on('end', () => done(null, text));
        })
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      const events = parseSse(res.body as string);
      expect(events.filter((e) => e.event === 'delta').map((e) => e.data)).toEqual(
        PIECES.map((content) => ({ content })),
      );
      const last = events[events.length - 1];
      expect(last.event).toBe('result');
      const { input, output } = USAGE[vendor];
      expect(last.data).toMatchObject({
        content: ANSWER,
        model,
        inputTokens: input,
        outputTokens: output,
        totalTokens: input + output,
      });
      if (vendor === 'gemini')
        expect(fake.seen[0].url).toBe(`/v1beta/models/${model}:streamGenerateContent?alt=sse`);
      if (vendor === 'azure')
        expect(fake.seen[0].url).toMatch(/^\/openai\/deployments\/chat-deployment\/chat\/completions/);
      if (vendor === 'openai') expect(fake.seen[0].body.stream_options).toEqual({ include_usage: true });
    },
  );

  it.each(PROVIDERS)(
    '%s: a vendor 503 then 429 is retried, and the third attempt answers',
    async (code, vendor) => {
      fake.plan(vendor, { status: 503 }, { status: 429 });
      const res = await chat({ provider: code, messages: hello }).expect(200);
      expect(res.body.data.content).toBe(ANSWER);
      expect(fake.seen).toHaveLength(3);
    },
  );

  it('vendor failures past the retries answer 502 AI_CHAT_FAILED; a 4xx is not retried', async () => {
    fake.plan('anthropic', { status: 500 }, { status: 502 }, { status: 503 });
    const failed = await chat({ provider: 'anthropic', messages: hello }).expect(502);
    expect(failed.body).toEqual({
      error: { status: 502, code: 'AI_CHAT_FAILED', message: 'AI chat failed' },
    });
    expect(fake.seen).toHaveLength(3);

    fake.clear();
    fake.plan('openai', { status: 400 });
    await chat({ provider: 'openai', messages: hello }).expect(502);
    expect(fake.seen).toHaveLength(1);
  });

  it('a vendor slower than AI_TIMEOUT_MS times out, is retried, then answers 502', async () => {
    fake.plan('ollama', { delayMs: 1500 }, { delayMs: 1500 }, { delayMs: 1500 });
    const started = Date.now();
    const res = await chat({ provider: 'ollama', messages: hello }).expect(502);
    expect(res.body.error.code).toBe('AI_CHAT_FAILED');
    expect(fake.seen).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(4000);

    fake.clear();
    fake.plan('gemini', { delayMs: 1500 });
    await chat({ provider: 'gemini', messages: hello }).expect(200);
    expect(fake.seen).toHaveLength(2);
  });

  it('a stream failing before its first event answers 502; after it, 200 ending with an error event', async () => {
    fake.plan('openai', { status: 500 }, { status: 500 }, { status: 500 });
    const before = await chat({ provider: 'openai', messages: hello, stream: true }).expect(502);
    expect(before.body.error.code).toBe('AI_CHAT_FAILED');

    fake.clear();
    fake.plan('anthropic', { breakAfterFirst: true });
    const res = await chat({ provider: 'anthropic', messages: hello, stream: true })
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => done(null, text));
      })
      .expect(200);
    const events = parseSse(res.body as string);
    expect(events.map((e) => e.event)).toEqual(['delta', 'error']);
    expect(events[1].data).toEqual({
      error: { status: 502, code: 'AI_CHAT_FAILED', message: 'AI chat failed' },
    });
    expect(fake.seen).toHaveLength(1);
  });

  it('a caller going away mid-stream aborts the vendor request', async () => {
    fake.plan('openai', { pieceDelayMs: 400 });
    const address = t.app.getHttpServer().address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no first event')), 5000);
      const req = http.request(
        {
          host: '127.0.0.1',
          port: address.port,
          path: '/api/ai/chat',
          method: 'POST',
          headers: { ...as(acme.adminToken), 'Content-Type': 'application/json' },
        },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            clearTimeout(timer);
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', () => undefined);
      req.end(JSON.stringify({ provider: 'openai', messages: hello, stream: true }));
    });
    const deadline = Date.now() + 3000;
    while (!fake.seen[0]?.closedEarly && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fake.seen[0].closedEarly).toBe(true);
  });

  it('validates the request before any vendor is called', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ provider: 'openai', messages: hello, temperature: 2.5 }, 'temperature'],
      [{ provider: 'openai', messages: hello, temperature: -0.1 }, 'temperature'],
      [{ provider: 'openai', messages: [] }, 'messages'],
      [{ provider: 'openai' }, 'messages'],
      [{ messages: hello }, 'provider'],
      [{ provider: 'openai', messages: hello, maxTokens: 1.5 }, 'maxTokens'],
      [{ provider: 'openai', messages: hello, stream: 'yes' }, 'stream'],
    ];
    for (const [body, field] of cases) {
      const res = await chat(body).expect(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field).join(',')).toContain(field);
    }
    const badRole = await chat({ provider: 'openai', messages: [{ role: 'robot', content: 'x' }] }).expect(
      400,
    );
    expect(JSON.stringify(badRole.body.error.details)).toContain('role');
    await chat({ provider: 'openai', messages: hello, unknownField: 1 }).expect(400);
    expect(fake.seen).toHaveLength(0);
  });

  it('an unknown provider answers 400 PROVIDER_NOT_AVAILABLE', async () => {
    const res = await chat({ provider: 'mistral', messages: hello }).expect(400);
    expect(res.body).toEqual({
      error: { status: 400, code: 'PROVIDER_NOT_AVAILABLE', message: 'Provider not available' },
    });
    await t.http().get('/api/ai/providers/mistral').set(as(acme.adminToken)).expect(400);
  });

  it('lists providers with upper-case codes; one provider; health', async () => {
    const list = await t.http().get('/api/ai/providers').set(as(viewerToken)).expect(200);
    expect(list.body.data.availableProviders).toEqual([
      'OPENAI',
      'ANTHROPIC',
      'GEMINI',
      'AZURE_OPENAI',
      'OLLAMA',
    ]);
    expect(list.body.data.loggingEnabled).toBe(false);
    expect(list.body.data.providers).toHaveLength(5);
    const one = await t.http().get('/api/ai/providers/Azure-OpenAI').set(as(viewerToken)).expect(200);
    expect(one.body.data).toEqual({
      provider: 'AZURE_OPENAI',
      available: true,
      defaultModel: 'chat-deployment',
      availableModels: ['chat-deployment'],
    });
    const health = await t.http().get('/api/ai/health').set(as(viewerToken)).expect(200);
    expect(health.body.data).toEqual({
      status: 'UP',
      availableProviders: ['OPENAI', 'ANTHROPIC', 'GEMINI', 'AZURE_OPENAI', 'OLLAMA'],
      providerCount: 5,
      loggingEnabled: false,
    });
  });

  it('chat needs ai:create (a VIEWER gets 403); statistics with logging off answer 400', async () => {
    await chat({ provider: 'openai', messages: hello }, viewerToken).expect(403);
    const stats = await t.http().get('/api/ai/stats').set(as(acme.adminToken)).expect(400);
    expect(stats.body).toEqual({
      error: { status: 400, code: 'LOGGING_NOT_ENABLED', message: 'Logging not enabled' },
    });
    await t.http().get('/api/ai/stats/costs').set(as(acme.adminToken)).expect(400);
  });

  it("tells the gateway's own time apart from the vendor's in Server-Timing and the overhead histogram", async () => {
    const overheadCount = async () => {
      const text = (await t.http().get('/metrics').expect(200)).text;
      return Number(/ai_gateway_overhead_seconds_count\{provider="OPENAI"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const before = await overheadCount();
    fake.plan('openai', { delayMs: 250 });
    const started = Date.now();
    const res = await chat({ provider: 'openai', messages: hello }).expect(200);
    const elapsed = Date.now() - started;
    const timing = /^gateway;dur=([\d.]+), vendor;dur=([\d.]+)$/.exec(String(res.headers['server-timing']));
    expect(timing).not.toBeNull();
    const [gatewayMs, vendorMs] = [Number(timing![1]), Number(timing![2])];
    expect(vendorMs).toBeGreaterThanOrEqual(245);
    expect(gatewayMs).toBeGreaterThanOrEqual(0);
    expect(gatewayMs).toBeLessThan(200); // the vendor's 250 ms are not counted as the gateway's
    expect(gatewayMs + vendorMs).toBeLessThanOrEqual(elapsed + 1);
    expect(await overheadCount()).toBe(before + 1);
  });

  it('counts requests, tokens, cost and duration in /metrics', async () => {
    await chat({ provider: 'openai', messages: hello }).expect(200);
    const res = await t.http().get('/metrics').expect(200);
    expect(res.text).toMatch(
      /ai_requests_total\{provider="OPENAI",model="gpt-4o-mini",status="success"\} \d+/,
    );
    expect(res.text).toMatch(
      /ai_requests_total\{provider="ANTHROPIC",model="claude-3-5-haiku-latest",status="error"\} \d+/,
    );
    expect(res.text).toMatch(
      /ai_tokens_total\{provider="OPENAI",model="gpt-4o-mini",direction="input"\} \d+/,
    );
    expect(res.text).toMatch(
      /ai_tokens_total\{provider="OPENAI",model="gpt-4o-mini",direction="output"\} \d+/,
    );
    expect(res.text).toContain('ai_request_duration_seconds_bucket');
    expect(res.text).toMatch(/ai_cost_usd_total\{provider="OPENAI",model="gpt-4o-mini"\} [\d.e-]+/);
  });
});
