import { SmtpSink } from '../support/smtp-sink';
import { Receiver } from '../webhooks/receiver';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { FakeOcrService } from './fake-ocr-service';
import { renderTextPng } from './fixtures';
import { as, documentOf, upload } from './helpers';

/** The `http` engine against a local peer speaking the OCR service's format: text, outage, timeout. */
describe('documents and OCR (http engine)', () => {
  let sink: SmtpSink;
  let ocr: FakeOcrService;
  let receiver: Receiver;
  let t: TestApp;
  let acme: ProvisionedClient;
  let companyId: number;
  let admin: Record<string, string>;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    ocr = await new FakeOcrService().start();
    receiver = await new Receiver().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        OCR_ENABLED: 'true',
        OCR_ENGINE: 'http',
        OCR_SERVICE_URL: ocr.url,
        OCR_TIMEOUT_SECONDS: '1',
        EVENT_RELAY_POLL_MS: '200',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      },
    });
    acme = await provisionClient(t, sink, 'acme');
    admin = as(acme.adminToken, 'acme');
    const companies = await t.http().get('/api/admin/companies').set(admin).expect(200);
    companyId = Math.min(...companies.body.data.map((c: { id: number }) => c.id));
    await t
      .http()
      .put(`/api/companies/${companyId}/ocr-config`)
      .set(admin)
      .send({ ocrEnabled: true, ocrLanguage: 'fr' })
      .expect(200);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await ocr?.stop();
    await receiver?.stop();
    await sink?.stop();
  });

  it('sends images to the service with the language and stores its answer, with its events', async () => {
    await t
      .http()
      .post('/api/admin/webhooks')
      .set(admin)
      .send({
        name: 'Docs',
        url: receiver.url('/docs'),
        events: ['document.created', 'document.ocr_completed'],
      })
      .expect(201);
    const status = await t.http().get('/api/companies/ocr-status').set(admin).expect(200);
    expect(status.body.data).toMatchObject({
      serviceAvailable: true,
      serviceUrl: ocr.url,
      serviceVersion: 'fake-ocr 2.7',
      defaultLanguage: 'ch',
    });
    expect(status.body.data.supportedLanguages.map((l: { code: string }) => l.code)).toEqual([
      'ch',
      'en',
      'fr',
      'german',
      'korean',
      'japan',
    ]);
    const up = await upload(t, admin, companyId, [['page.png', renderTextPng(['HELLO'])]]).expect(201);
    const doc = await documentOf(t, admin, up.body[0].id);
    expect(doc).toMatchObject({
      status: 'COMPLETED',
      extractedText: ocr.text,
      ocrConfidence: 0.8765,
      confidencePercent: 88,
      pageCount: 2,
      ocrLanguage: 'fr',
    });
    expect(ocr.requests.at(-1)!.lang).toBe('fr');
    const events = await receiver.waitFor('/docs', 2);
    const bodies = events.map(
      (e) => e.body as { event: string; data: { id: number; attributes: Record<string, unknown> } },
    );
    expect(bodies.map((b) => b.event).sort()).toEqual(['document.created', 'document.ocr_completed']);
    const completed = bodies.find((b) => b.event === 'document.ocr_completed')!;
    expect(completed.data.id).toBe(doc.id);
    expect(completed.data.attributes).toMatchObject({ status: 'COMPLETED', fileId: up.body[0].id });
    const found = await t
      .http()
      .get('/search/documents')
      .set(admin)
      .query({ companyId, q: 'turbine' })
      .expect(200);
    expect(found.body.totalElements).toBe(1);
  });

  it('answers 503 with the spec message while the service is down', async () => {
    const up = await upload(t, admin, companyId, [['late.png', renderTextPng(['LATE'])]]).expect(201);
    await documentOf(t, admin, up.body[0].id);
    ocr.down = true;
    try {
      await t.http().delete(`/api/admin/documents/${up.body[0].id}`).set(admin).expect(204);
      const res = await t
        .http()
        .post(`/api/companies/${companyId}/document-analysis/analyze/${up.body[0].id}`)
        .set(admin)
        .expect(503);
      expect(res.body).toEqual({ error: 'OCR service is not available. Please try again later.' });
      const status = await t.http().get('/api/admin/documents/ocr-status').set(admin).expect(200);
      expect(status.body.serviceAvailable).toBe(false);
      const health = await t.http().get('/management/health').expect(503);
      expect(health.body.details.ocr.status).toBe('down');
    } finally {
      ocr.down = false;
    }
  });

  it('ends a document FAILED when the service does not answer within OCR_TIMEOUT_SECONDS', async () => {
    ocr.delayMs = 2500;
    try {
      const up = await upload(t, admin, companyId, [['slow.png', renderTextPng(['SLOW'])]]).expect(201);
      const doc = await documentOf(t, admin, up.body[0].id);
      expect(doc.status).toBe('FAILED');
      expect(doc.errorMessage).toBe('OCR service timed out after 1 seconds');
    } finally {
      ocr.delayMs = 0;
    }
  });
});
