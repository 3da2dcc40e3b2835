import { SmtpSink } from '../support/smtp-sink';
import { until } from '../webhooks/receiver';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { FakeOcrService } from './fake-ocr-service';
import { renderTextPng } from './fixtures';
import { as, documentOf, upload } from './helpers';

const ONE_DOCUMENT_MS = 150;
const WORKERS = 2;
const CAP = 2;

/** One client's thousands of scans never hold back another client's first document; budgets per client. */
describe('OCR served fairly across clients', () => {
  let sink: SmtpSink;
  let ocr: FakeOcrService;
  let t: TestApp;
  const clients: { acme?: ProvisionedClient; beta?: ProvisionedClient } = {};
  const companies: Record<string, number> = {};
  const headers = (c: 'acme' | 'beta') => as(clients[c]!.adminToken, c);

  const pending = async () => {
    const metrics = (await t.http().get('/metrics').expect(200)).text;
    return Number(/^ocr_queue_pending (\d+)/m.exec(metrics)?.[1] ?? 0);
  };

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    ocr = await new FakeOcrService().start();
    ocr.delayMs = ONE_DOCUMENT_MS;
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        OCR_ENABLED: 'true',
        OCR_ENGINE: 'http',
        OCR_SERVICE_URL: ocr.url,
        OCR_WORKERS: String(WORKERS),
        OCR_CLIENT_MAX_IN_FLIGHT: String(CAP),
        EVENT_RELAY_POLL_MS: '100',
      },
    });
    for (const [c, language] of [
      ['acme', 'en'],
      ['beta', 'fr'],
    ] as const) {
      clients[c] = await provisionClient(t, sink, c);
      const list = await t.http().get('/api/admin/companies').set(headers(c)).expect(200);
      companies[c] = Math.min(...list.body.data.map((x: { id: number }) => x.id));
      await t
        .http()
        .put(`/api/companies/${companies[c]}/ocr-config`)
        .set(headers(c))
        .send({ ocrEnabled: true, ocrLanguage: language })
        .expect(200);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await ocr?.stop();
    await sink?.stop();
  });

  it("serves another client's document behind at most the jobs already in flight", async () => {
    const page = renderTextPng(['SCAN']);
    for (let batch = 0; batch < 4; batch++) {
      const files = Array.from({ length: 10 }, (_, i): [string, Buffer] => [`a${batch}-${i}.png`, page]);
      await upload(t, headers('acme'), companies.acme, files).expect(201);
    }
    // The 40 are relayed and waiting their turn (the queue itself holds at most CAP of them).
    await until(pending, (n) => n >= 30, 20_000);
    const acmeBefore = ocr.requests.length;
    const started = Date.now();
    const up = await upload(t, headers('beta'), companies.beta, [['b.png', page]]).expect(201);
    const doc = await documentOf(t, headers('beta'), up.body[0].id, ['COMPLETED'], 30_000);
    const elapsed = Date.now() - started;

    const betaAt = ocr.requests.findIndex((r) => r.lang === 'fr');
    expect(doc.status).toBe('COMPLETED');
    // Ahead of it: acme's jobs in flight when it arrived (CAP), and those the relay's poll let start.
    expect(betaAt - acmeBefore).toBeLessThanOrEqual(CAP + WORKERS);
    expect(betaAt).toBeLessThan(20);
    const fifoMs = ((40 - acmeBefore) / WORKERS) * ONE_DOCUMENT_MS;
    expect(elapsed).toBeLessThan(fifoMs);
    await until(pending, (n) => n === 0, 30_000);
  }, 90_000);

  it("keeps OCR budgets per client: company 1 spending retry-all-failed in one leaves another's", async () => {
    expect(companies.acme).toBe(companies.beta);
    const retryAll = (c: 'acme' | 'beta') =>
      t.http().post(`/api/companies/${companies[c]}/document-analysis/retry-all-failed`).set(headers(c));
    for (let i = 0; i < 3; i++) await retryAll('acme').expect(200);
    await retryAll('acme').expect(429);
    await retryAll('beta').expect(200);
  });
});
