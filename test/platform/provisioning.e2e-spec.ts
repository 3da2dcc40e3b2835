import { SmtpSink } from '../support/smtp-sink';
import { bootApp, provisionClient, superAdminToken, TestApp } from '../support/test-app';

describe('client provisioning', () => {
  let sink: SmtpSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  it('provisions two clients whose admins log in, and keeps their tokens apart', async () => {
    const a = await provisionClient(t, sink, 'acme');
    const b = await provisionClient(t, sink, 'beta');
    const res = await t
      .http()
      .get('/sandboxes')
      .set('X-Client-ID', 'acme')
      .set('Authorization', `Bearer ${a.adminToken}`);
    expect(res.status).toBe(200);
    expect(res.headers['x-current-client']).toBe('acme');
    const cross = await t
      .http()
      .get('/sandboxes')
      .set('X-Client-ID', 'beta')
      .set('Authorization', `Bearer ${a.adminToken}`);
    expect(cross.status).toBe(401);
    expect(cross.body.error.code).toBe('INVALID_TOKEN');
    expect(b.adminToken).not.toEqual(a.adminToken);
  });

  it('never shows connection details', async () => {
    const root = await superAdminToken(t);
    const res = await t.http().get('/api/platform/clients').set('Authorization', `Bearer ${root}`);
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    for (const field of [
      'databaseHost',
      'databasePort',
      'databaseName',
      'databaseUsername',
      'databasePassword',
    ]) {
      expect(text).not.toContain(field);
    }
  });
});
