import { parseDatabaseUrl, withAdminConnection } from '../../src/database/data-source-factory';
import { SmtpSink } from '../support/smtp-sink';
import { ADMIN_URL } from '../support/test-env';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { Receiver, until } from '../webhooks/receiver';

/** customHeaders must be sendable HTTP; a delivery that cannot be sent still ends FAILED. */
describe('webhook custom headers', () => {
  let sink: SmtpSink;
  let receiver: Receiver;
  let t: TestApp;
  let client: ProvisionedClient;

  const api = (method: 'get' | 'post' | 'put', path: string) =>
    t.http()[method](path).set('X-Client-ID', 'whhdr').set('Authorization', `Bearer ${client.adminToken}`);

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    receiver = await new Receiver().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_RETRY_DELAYS_MS: '200',
        WEBHOOK_SWEEP_INTERVAL_MS: '500',
        EVENT_RELAY_POLL_MS: '200',
      },
    });
    client = await provisionClient(t, sink, 'whhdr');
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    await sink?.stop();
  });

  it.each([
    ['a non-ASCII value', { 'X-Price': '10 €' }],
    ['a control character', { 'X-Ctl': 'a\u0001b' }],
    ['a line separator', { 'X-Sep': 'a\u2028b' }],
    ['a line break', { 'X-Crlf': 'a\r\nInjected: yes' }],
    ['a name that is not a token', { 'X Bad': 'v' }],
    ['a non-ASCII name', { 'X-Prïce': 'v' }],
  ])('refuses %s with 400 VALIDATION_ERROR, on create and update', async (_, customHeaders) => {
    const created = await api('post', '/api/admin/webhooks').send({
      name: 'Bad headers',
      url: receiver.url('/bad'),
      customHeaders,
    });
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe('VALIDATION_ERROR');
    const ok = await api('post', '/api/admin/webhooks').send({ name: 'Good', url: receiver.url('/good') });
    expect(ok.status).toBe(201);
    const updated = await api('put', `/api/admin/webhooks/${ok.body.data.id}`).send({ customHeaders });
    expect(updated.status).toBe(400);
    expect(updated.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('accepts visible ASCII with spaces and tabs', async () => {
    const res = await api('post', '/api/admin/webhooks').send({
      name: 'Fine headers',
      url: receiver.url('/fine'),
      customHeaders: { 'X-Api-Key': 'abc 123\t~!', "X-Tok!#$%&'*+.^_`|~": 'v' },
    });
    expect(res.status).toBe(201);
  });

  it('counts a stored header that cannot be sent as a failed attempt: retries, then FAILED and disabled', async () => {
    const created = await api('post', '/api/admin/webhooks').send({
      name: 'Stored bad header',
      url: receiver.url('/stored'),
      events: ['unit.created'],
      maxRetries: 1,
      autoDisableAfterFailures: 2,
    });
    expect(created.status).toBe(201);
    const hookId = created.body.data.id as number;
    // A row written before validation existed.
    const target = { ...parseDatabaseUrl(ADMIN_URL), database: `${t.masterDatabase}_whhdr` };
    await withAdminConnection(target, (pg) =>
      pg.query(`UPDATE webhooks SET custom_headers = $2 WHERE id = $1`, [hookId, { 'X-Price': '10 €' }]),
    );
    await api('post', '/api/units').send({ name: 'Header turbine' }).expect(201);
    const latest = async () =>
      (await api('get', `/api/admin/webhooks/${hookId}/deliveries`)).body.data[0] as
        { id: number; status: string; attemptCount: number; errorMessage: string | null } | undefined;
    const failed = await until(latest, (d) => d?.status === 'FAILED');
    expect(failed).toMatchObject({
      attemptCount: 2,
      errorMessage: expect.stringMatching(/Invalid character in header content|could not be sent/),
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await latest()).toMatchObject({ status: 'FAILED', attemptCount: 2 });
    const hook = (await api('get', `/api/admin/webhooks/${hookId}`)).body.data;
    expect(hook).toMatchObject({ isActive: false, consecutiveFailures: 2 });
    expect(receiver.at('/stored')).toHaveLength(0);
  });
});
