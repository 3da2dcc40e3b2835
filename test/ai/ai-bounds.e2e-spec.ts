import { randomUUID } from 'node:crypto';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { FakeVendor } from '../support/fake-ai-vendor';
import { vendorEnv } from './ai-helpers';

const userIdOf = (jwt: string) =>
  (JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as { sub: number }).sub;

/** Label values of one metric's series in a /metrics text. */
function labelValues(metrics: string, metric: string, label: string): Set<string> {
  const pattern = new RegExp(`^${metric}\\{[^}]*\\b${label}="([^"]*)"`, 'gm');
  return new Set([...metrics.matchAll(pattern)].map((m) => m[1]));
}

/** /metrics stays bounded whatever callers send; each client's users have budgets of their own. */
describe('AI chat: bounded metric labels and per-client rates', () => {
  let sink: SmtpSink;
  let fake: FakeVendor;
  let t: TestApp;
  let acme: ProvisionedClient;
  let beta: ProvisionedClient;
  const RATE = 16;

  const chat = (client: ProvisionedClient, model?: string) =>
    t
      .http()
      .post('/api/ai/chat')
      .set({ 'X-Client-ID': client.identifier, Authorization: `Bearer ${client.adminToken}` })
      .send({ provider: 'openai', messages: [{ role: 'user', content: 'Hi' }], ...(model && { model }) });

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    fake = await new FakeVendor().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        ...vendorEnv(fake),
        AI_MAX_RETRIES: '0',
        AI_RATE_LIMIT_PER_USER: String(RATE),
        AI_MODEL_PRICES: JSON.stringify({ 'house-model': [1, 2] }),
        // Two provisionings spend two password resets; the third public request is refused.
        AUTH_PUBLIC_LIMIT_PER_ADDRESS: '2',
      },
    });
    acme = await provisionClient(t, sink, 'acme');
    beta = await provisionClient(t, sink, 'beta');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
    await sink?.stop();
  });

  it('labels any model outside the priced and configured ones as other, failed chats included', async () => {
    for (let i = 0; i < 8; i++) await chat(acme, `random-${randomUUID()}`).expect(200);
    fake.plan('openai', { status: 500 });
    await chat(acme, `random-${randomUUID()}`).expect(502);
    await chat(acme, 'house-model').expect(200);
    await chat(acme).expect(200);
    fake.plan('openai', { status: 500 });
    await chat(acme, 'gpt-4o').expect(502);

    const metrics = (await t.http().get('/metrics').expect(200)).text;
    for (const metric of [
      'ai_requests_total',
      'ai_tokens_total',
      'ai_cost_usd_total',
      'ai_request_duration_seconds_count',
    ]) {
      const models = labelValues(metrics, metric, 'model');
      expect([...models].every((m) => ['other', 'house-model', 'gpt-4o-mini', 'gpt-4o'].includes(m))).toBe(
        true,
      );
      expect(models.has('other')).toBe(true);
    }
    expect(metrics).toMatch(/^ai_requests_total\{provider="OPENAI",model="other",status="success"\} 8$/m);
    expect(metrics).toMatch(/^ai_requests_total\{provider="OPENAI",model="other",status="error"\} 1$/m);
    expect(metrics).toMatch(/^ai_requests_total\{provider="OPENAI",model="gpt-4o",status="error"\} 1$/m);
    const series = metrics.split('\n').filter((l) => /^ai_requests_total\{/.test(l));
    expect(series).toHaveLength(5);
  });

  it('keeps the route label of refused public requests to their path, whatever its letter case', async () => {
    for (const path of ['/auth/forgot-password', '/AUTH/forgot-password', '/auth/Forgot-Password/x']) {
      await t.http().post(path).set('X-Client-ID', 'acme').send({ email: 'a@b.test' }).expect(429);
    }
    const metrics = (await t.http().get('/metrics').expect(200)).text;
    const refused = [
      ...metrics.matchAll(/^http_request_duration_seconds_count\{[^}]*route="([^"]*)",status="429"\}/gm),
    ];
    expect(new Set(refused.map((m) => m[1]))).toEqual(new Set(['/auth/forgot-password']));
  });

  it("counts a user's chats per client: user 1 of one client spending its rate leaves user 1 of another free", async () => {
    expect(userIdOf(acme.adminToken)).toBe(userIdOf(beta.adminToken));
    let answered = 0;
    for (;;) {
      const res = await chat(acme);
      if (res.status === 429) break;
      expect(res.status).toBe(200);
      answered++;
    }
    expect(answered).toBeLessThan(RATE);
    await chat(acme).expect(429);
    await chat(beta).expect(200);
  });
});
