import { createUser, loginFull } from '../identity/identity-helpers';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { corruptPng, renderTextPng, textDocx, textPdf } from './fixtures';
import { until } from '../webhooks/receiver';
import { as, documentOf, upload } from './helpers';

const DISABLED = 'OCR is disabled for this organization. Enable it in settings first.';

/** Company upload, the embedded OCR pipeline, document analysis, search, limits and isolation. */
describe('documents and OCR (embedded engine)', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let acme: ProvisionedClient;
  let companyId: number;
  let otherCompanyId: number;
  let farToken: string;
  let admin: Record<string, string>;
  let far: Record<string, string>;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        OCR_ENABLED: 'true',
        UPLOAD_MAX_FILE_BYTES: '300000',
        EVENT_RELAY_POLL_MS: '200',
      },
    });
    acme = await provisionClient(t, sink, 'acme');
    admin = as(acme.adminToken, 'acme');
    const companies = await t.http().get('/api/admin/companies').set(admin).expect(200);
    companyId = Math.min(...companies.body.data.map((c: { id: number }) => c.id));
    const other = await t
      .http()
      .post('/api/admin/companies')
      .set(admin)
      .send({ name: 'Elsewhere' })
      .expect(201);
    otherCompanyId = other.body.data.id;
    const user = { email: 'far@acme.test', password: 'Far-password-1', role: 'MANAGER' as const };
    await createUser(t, acme.adminToken, { ...user, companyId: otherCompanyId }, 'acme');
    farToken = (await loginFull(t, user.email, user.password, 'acme')).body.jwt;
    far = as(farToken, 'acme');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  it('skips uploads while OCR is off for the company, and answers the disabled message', async () => {
    const config = await t.http().get(`/api/companies/${companyId}/ocr-config`).set(admin).expect(200);
    expect(config.body.data).toMatchObject({
      companyId,
      ocrEnabled: false,
      ocrLanguage: 'en',
      ocrAutoProcess: true,
      ocrFileTypes: 'pdf,png,jpg,jpeg,tiff,docx,doc',
    });
    expect(config.body.data.supportedFileTypes).toContain('WEBP');
    const up = await upload(t, admin, companyId, [['off.png', renderTextPng(['OFF'])]]).expect(201);
    const doc = await documentOf(t, admin, up.body[0].id);
    expect(doc).toMatchObject({ status: 'SKIPPED', statusLabel: 'Skipped', errorMessage: DISABLED });
    const retry = await t
      .http()
      .post(`/api/companies/${companyId}/document-analysis/${doc.id}/retry`)
      .set(admin)
      .expect(400);
    expect(retry.body).toEqual({ error: DISABLED });
    const analyze = await t
      .http()
      .post(`/api/companies/${companyId}/document-analysis/analyze/${up.body[0].id}`)
      .set(admin)
      .expect(400);
    expect(analyze.body).toEqual({ error: DISABLED });
  });

  it('reads a rendered PNG and finds its words by search, ranked and highlighted', async () => {
    await t.http().post(`/api/companies/${companyId}/ocr-config/enable`).set(admin).expect(200);
    const png = renderTextPng(['TURBINE INSPECTION 2026', 'GENERATOR BEARING REPORT']);
    const up = await upload(t, admin, companyId, [['scan.png', png]], '', { folder: 'scans/2026' }).expect(
      201,
    );
    const file = up.body[0];
    expect(file).toMatchObject({
      name: 'scan.png',
      ext: '.png',
      mime: 'image/png',
      size: png.length,
      provider: 'local',
      folderPath: `companies/${companyId}/scans/2026`,
      url: `/api/files/${file.id}/content`,
    });
    expect(file.hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const content = await t.http().get(file.url).set(admin).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(content.body as Buffer, png)).toBe(0);
    expect(content.headers['content-type']).toBe('image/png');

    const audit = await t.http().get(`/compliance/audit/entity/File/${file.id}`).set(admin).expect(200);
    expect(audit.body.data[0]).toMatchObject({ action: 'CREATE', message: 'Uploaded scan.png' });
    const changed = await t
      .http()
      .get(`/compliance/audit/entity/Company/${companyId}`)
      .set(admin)
      .expect(200);
    expect(changed.body.data[0]).toMatchObject({
      action: 'UPDATE',
      message: 'OCR configuration changed',
      changes: { ocrEnabled: { old: false, new: true } },
    });

    const doc = await documentOf(t, admin, file.id);
    expect(doc.status).toBe('COMPLETED');
    expect(doc.extractedText).toMatch(/TURBINE INSPECTION/);
    expect(doc).toMatchObject({
      statusLabel: 'Completed',
      complete: true,
      inProgress: false,
      retryable: false,
      indexedForSearch: true,
      pageCount: 1,
      pagesProcessed: 1,
      fileType: 'UPLOAD',
      ocrLanguage: 'en',
      fileSizeBytes: png.length,
      companyId,
    });
    expect(doc.wordCount).toBe(6);
    expect(doc.confidencePercent).toBe(Math.round((doc.ocrConfidence as number) * 100));

    const found = await t
      .http()
      .get('/search/documents')
      .set(admin)
      .query({ companyId, q: 'bearing turbines' })
      .expect(200);
    expect(found.body).toMatchObject({ totalElements: 1, totalPages: 1, number: 0, size: 20 });
    expect(found.body.content[0]).toMatchObject({ fileId: file.id, processingStatus: 'COMPLETED' });
    expect(found.body.content[0].highlight).toMatch(/<mark>BEARING<\/mark>/);
    const none = await t
      .http()
      .get('/search/documents')
      .set(admin)
      .query({ companyId, q: 'compressor' })
      .expect(200);
    expect(none.body.totalElements).toBe(0);

    const analyze = await t
      .http()
      .post(`/api/companies/${companyId}/document-analysis/analyze/${file.id}`)
      .set(admin)
      .expect(409);
    expect(analyze.body).toEqual({ error: 'File has already been analyzed successfully' });
  });

  it('reads a PDF text layer and a DOCX; an unsupported type is SKIPPED', async () => {
    const up = await upload(
      t,
      admin,
      companyId,
      [
        ['report.pdf', textPdf(['Quarterly emissions report', 'Boiler seven'])],
        ['letter.docx', await textDocx(['Permit renewal letter'])],
        ['notes.txt', Buffer.from('plain words here')],
      ],
      '/multiple',
    ).expect(201);
    expect(up.body.map((f: { ext: string }) => f.ext)).toEqual(['.pdf', '.docx', '.txt']);
    const pdf = await documentOf(t, admin, up.body[0].id);
    expect(pdf).toMatchObject({ status: 'COMPLETED', pageCount: 1, ocrConfidence: 1 });
    expect(pdf.extractedText).toContain('Quarterly emissions report');
    const docx = await documentOf(t, admin, up.body[1].id);
    expect(docx.extractedText).toContain('Permit renewal letter');
    const txt = await documentOf(t, admin, up.body[2].id);
    expect(txt).toMatchObject({
      status: 'SKIPPED',
      errorMessage: 'File type not supported for OCR: notes.txt',
    });
    const analyze = await t
      .http()
      .post(`/api/companies/${companyId}/document-analysis/analyze/${up.body[2].id}`)
      .set(admin)
      .expect(400);
    expect(analyze.body).toEqual({ error: 'File type not supported for OCR: notes.txt' });

    const emissions = await t
      .http()
      .get('/search/documents')
      .set(admin)
      .query({ companyId, q: 'emission' })
      .expect(200);
    expect(emissions.body.content.map((d: { fileId: number }) => d.fileId)).toEqual([up.body[0].id]);
  });

  it('ends a corrupt image FAILED, keeps running, and retries it', async () => {
    const up = await upload(t, admin, companyId, [['broken.png', corruptPng()]]).expect(201);
    const failed = await documentOf(t, admin, up.body[0].id);
    expect(failed).toMatchObject({ status: 'FAILED', retryable: true, statusLabel: 'Failed' });
    expect(failed.errorMessage).toMatch(/Image could not be read/);
    await t.http().get('/management/health/liveness').expect(200);

    const base = `/api/companies/${companyId}/document-analysis`;
    const retry = await t.http().post(`${base}/${failed.id}/retry`).set(admin).expect(200);
    expect(retry.body).toEqual({
      data: { message: 'Document queued for processing', analysisId: failed.id, status: 'processing' },
      message: 'Document queued for processing',
    });
    await documentOf(t, admin, up.body[0].id, ['FAILED']);
    const all = await t.http().post(`${base}/retry-all-failed`).set(admin).expect(200);
    expect(all.body.data).toMatchObject({ count: 1, status: 'processing' });
    await documentOf(t, admin, up.body[0].id, ['FAILED']);

    const list = await t
      .http()
      .get(base)
      .set(admin)
      .query({ status: 'FAILED', sort: 'createdAt,desc' })
      .expect(200);
    expect(list.body).toMatchObject({ totalElements: 1, number: 0, size: 20 });
    expect(list.body.content[0]).toMatchObject({ id: failed.id, status: 'FAILED' });
    expect(list.body.content[0].extractedText).toBeUndefined();
    expect(list.body.content[0].fileSizeBytes).toBeUndefined();
    const queue = await t.http().get(`${base}/queue-status`).set(admin).expect(200);
    expect(queue.body.data).toMatchObject({ failed: 1, pending: 0, processing: 0 });
    expect(queue.body.data.total).toBeGreaterThanOrEqual(6);
    const summary = await t.http().get(`${base}/summary`).set(admin).expect(200);
    expect(summary.body.data).toMatchObject({
      companyId,
      ocrEnabled: true,
      failedCount: 1,
      serviceAvailable: true,
    });
    expect(summary.body.data.completedCount).toBeGreaterThanOrEqual(3);
    const stats = await t
      .http()
      .get('/api/admin/documents/stats')
      .set(admin)
      .query({ companyId })
      .expect(200);
    expect(stats.body.statusCounts.FAILED).toBe(1);

    for (const query of [{ status: 'BOGUS' }, { size: 101 }, { sort: 'extractedText,asc' }]) {
      const bad = await t.http().get(base).set(admin).query(query).expect(400);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    }
    const metrics = await t.http().get('/metrics').expect(200);
    expect(metrics.text).toMatch(/ocr_documents_failed_total \d+/);
    expect(metrics.text).toMatch(/ocr_processing_duration_seconds_bucket/);
    const health = await t.http().get('/management/health');
    expect(health.body.details.ocr).toMatchObject({ status: 'up', engine: 'embedded' });
  });

  it('limits retry-all-failed to 3 per company in 5 minutes and analyze to 20 per user a minute (429)', async () => {
    const base = `/api/companies/${companyId}/document-analysis`;
    // The previous test used one of the three.
    await t.http().post(`${base}/retry-all-failed`).set(admin).expect(200);
    await t.http().post(`${base}/retry-all-failed`).set(admin).expect(200);
    const limited = await t.http().post(`${base}/retry-all-failed`).set(admin).expect(429);
    expect(limited.body.error).toMatch(/Too many/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    const up = await upload(t, admin, companyId, [
      ['x.zip', Buffer.from('PK\u0003\u0004 not a docx')],
    ]).expect(201);
    // Two earlier analyze calls of this user counted (the disabled one is refused before the limit).
    for (let i = 0; i < 18; i++)
      await t.http().post(`${base}/analyze/${up.body[0].id}`).set(admin).expect(400);
    const tooMany = await t.http().post(`${base}/analyze/${up.body[0].id}`).set(admin).expect(429);
    expect(tooMany.headers['retry-after']).toBeDefined();
  });

  it('refuses traversal names and folders, and answers 413 past the size and count limits', async () => {
    const png = renderTextPng(['X']);
    const name = await upload(t, admin, companyId, [['../../etc/passwd.png', png]]).expect(400);
    expect(name.body.error.code).toBe('VALIDATION_ERROR');
    for (const folder of ['../up', 'a/../../b', '/abs', 'a//b', 'x'.repeat(65)]) {
      const bad = await upload(t, admin, companyId, [['ok.png', png]], '', { folder }).expect(400);
      expect(bad.body.error.details[0].field).toBe('folder');
    }
    const big = await upload(t, admin, companyId, [['big.png', Buffer.alloc(300001, 1)]]).expect(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const many = Array.from({ length: 11 }, (_, i): [string, Buffer] => [`f${i}.png`, png]);
    await upload(t, admin, companyId, many).expect(413);
  });

  it('keeps companies apart: files, documents, search and upload paths', async () => {
    const up = await upload(t, admin, companyId, [['mine.pdf', textPdf(['Private words'])]]).expect(201);
    const fileId = up.body[0].id;
    const doc = await documentOf(t, admin, fileId);
    await upload(t, far, companyId, [['x.png', renderTextPng(['X'])]]).expect(403);
    await t.http().get(`/api/files/${fileId}`).set(far).expect(404);
    await t.http().get(`/api/files/${fileId}/content`).set(far).expect(404);
    await t.http().get(`/search/documents/${fileId}`).set(far).expect(404);
    await t.http().get('/search/documents').set(far).query({ companyId, q: 'private' }).expect(403);
    await t.http().get(`/api/companies/${companyId}/document-analysis/${doc.id}`).set(far).expect(403);
    await t.http().get(`/api/companies/${otherCompanyId}/document-analysis/${doc.id}`).set(far).expect(404);
    await t.http().get(`/api/companies/${companyId}/ocr-config`).set(far).expect(403);
    const unit = await t.http().post('/api/units').set(far).send({ name: 'Far unit' }).expect(201);
    const unitId = unit.body.data.id;
    const link = { ref: 'unit', refId: String(unitId), field: 'attachments' };
    const linked = await upload(
      t,
      far,
      otherCompanyId,
      [['a.pdf', textPdf(['Linked'])]],
      '/link',
      link,
    ).expect(201);
    expect(linked.body[0]).toMatchObject({ ref: 'unit', refId: unitId, field: 'attachments' });
    const outOfReach = await upload(t, admin, companyId, [['b.pdf', textPdf(['x'])]], '/link', link).expect(
      400,
    );
    expect(outOfReach.body.error.details[0].field).toBe('refId');
    const unlinked = await upload(t, far, otherCompanyId, [['a.pdf', textPdf(['x'])]], '/link').expect(400);
    expect(unlinked.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'ref',
      'refId',
      'field',
    ]);
  });

  it('administers documents: list, reprocess, remove content, process again; validates the config', async () => {
    const up = await upload(t, admin, companyId, [['admin.pdf', textPdf(['Administered text'])]]).expect(201);
    const fileId = up.body[0].id;
    await documentOf(t, admin, fileId);
    const list = await t
      .http()
      .get('/api/admin/documents')
      .set(admin)
      .query({ companyId, status: 'COMPLETED', size: 2 });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ size: 2, number: 0 });
    expect(list.body.content).toHaveLength(2);
    await t.http().get('/api/admin/documents').set(admin).query({ companyId: otherCompanyId }).expect(403);
    const detail = await t
      .http()
      .get(`/api/admin/documents/${fileId}`)
      .set(admin)
      .query({ includeFullText: true });
    expect(detail.body.extractedText).toContain('Administered text');

    const reprocess = await t.http().post(`/api/admin/documents/${fileId}/reprocess`).set(admin).expect(200);
    expect(reprocess.body).toEqual({ message: 'Document queued for processing', status: 'processing' });
    await until(
      () => t.http().get(`/api/admin/documents/${fileId}`).set(admin),
      (r) => r.body.status === 'COMPLETED' && r.body.processedAt !== detail.body.processedAt,
      30_000,
    );
    await t.http().delete(`/api/admin/documents/${fileId}`).set(admin).expect(204);
    await t.http().get(`/api/admin/documents/${fileId}`).set(admin).expect(404);
    const processed = await t
      .http()
      .post(`/api/admin/documents/${fileId}/process`)
      .set(admin)
      .query({ companyId })
      .expect(200);
    expect(processed.body.status).toBe('processing');
    expect((await documentOf(t, admin, fileId)).extractedText).toContain('Administered text');

    const config = `/api/companies/${companyId}/ocr-config`;
    for (const body of [
      { ocrLanguage: 'xx' },
      { ocrFileTypes: 'exe' },
      { ocrEnabled: 'yes' },
      { companyId: 9 },
    ]) {
      const bad = await t.http().put(config).set(admin).send(body).expect(400);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    }
    const changed = await t.http().put(config).set(admin).send({ ocrFileTypes: 'PDF,png' }).expect(200);
    expect(changed.body).toMatchObject({
      data: { ocrFileTypes: 'pdf,png' },
      message: 'OCR configuration updated',
    });
    await t.http().put(config).set(far).send({ ocrLanguage: 'fr' }).expect(403);
    await t
      .http()
      .put(config)
      .set(admin)
      .send({ ocrFileTypes: 'pdf,png,jpg,jpeg,tiff,docx,doc' })
      .expect(200);
  });

  it('processes uploads made in a sandbox, which stay out of production search', async () => {
    await t.http().post('/sandboxes').set(admin).send({ name: 'Docs' }).expect(201);
    const sandbox = { ...admin, 'X-Tenant-ID': 'sandbox_docs' };
    const up = await upload(t, sandbox, companyId, [
      ['sandbox.pdf', textPdf(['Sandbox only zeppelin'])],
    ]).expect(201);
    const doc = await documentOf(t, sandbox, up.body[0].id);
    expect(doc.extractedText).toContain('zeppelin');
    const inSandbox = await t
      .http()
      .get('/search/documents')
      .set(sandbox)
      .query({ companyId, q: 'zeppelin' });
    expect(inSandbox.body.totalElements).toBe(1);
    const inProduction = await t
      .http()
      .get('/search/documents')
      .set(admin)
      .query({ companyId, q: 'zeppelin' });
    expect(inProduction.body.totalElements).toBe(0);
  });
});

/** Collects a binary answer as a Buffer. */
function binary(res: import('superagent').Response, cb: (err: Error | null, body: Buffer) => void) {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => cb(null, Buffer.concat(chunks)));
}
