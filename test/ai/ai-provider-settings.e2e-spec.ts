import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { FakeVendor } from '../support/fake-ai-vendor';
import { vendorEnv } from './ai-helpers';

/**
 * The vendors' SDKs also read their own environment variables: OpenAI's base URL in the process
 * environment (as behind a proxy) must not stop Azure OpenAI from starting beside it.
 */
describe('AI providers: settings read from the environment', () => {
  let sink: SmtpSink;
  let fake: FakeVendor;
  let t: TestApp;
  let acme: ProvisionedClient;
  const before = process.env.OPENAI_BASE_URL;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    fake = await new FakeVendor().start();
    process.env.OPENAI_BASE_URL = `${fake.root}/v1`;
    t = await bootApp({ env: { SMTP_URL: sink.url, ...vendorEnv(fake) } });
    acme = await provisionClient(t, sink, 'acme');
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.OPENAI_BASE_URL;
    else process.env.OPENAI_BASE_URL = before;
    await t?.close();
    await fake?.stop();
    await sink?.stop();
  });

  it('starts with all five providers, OpenAI with its own base URL beside Azure, and both answer', async () => {
    const as = { 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` };
    const health = await t.http().get('/api/ai/health').set(as).expect(200);
    expect(health.body.data.providerCount).toBe(5);
    for (const provider of ['OPENAI', 'AZURE_OPENAI']) {
      const res = await t
        .http()
        .post('/api/ai/chat')
        .set(as)
        .send({ provider, messages: [{ role: 'user', content: 'Hi' }] });
      expect(res.status).toBe(200);
    }
    expect(fake.seen.map((s) => s.vendor)).toEqual(['openai', 'azure']);
  });
});
