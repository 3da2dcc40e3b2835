import { Client } from 'pg';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { bootApp, superAdminToken, TestApp } from '../support/test-app';
import { databaseUrl } from '../support/test-env';
import { Receiver, until } from './receiver';

/** The SSRF guard on (WEBHOOK_ALLOW_PRIVATE_TARGETS unset), served from the master database. */
describe('webhook SSRF guard', () => {
  let t: TestApp;
  let token: string;
  let receiver: Receiver;

  const api = (method: 'get' | 'post' | 'put', path: string) =>
    t.http()[method](path).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    receiver = await new Receiver().start();
    t = await bootApp({ env: { EVENT_RELAY_POLL_MS: '200', WEBHOOK_RETRY_DELAYS_MS: '100' } });
    token = await superAdminToken(t);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/hook',
    'http://127.0.0.1:8080/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://127.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::1]/',
    'http://[::7f00:1]/',
    'http://[::a00:1]/',
    'http://[64:ff9b::a00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[ff02::1]/',
    'http://224.0.0.1/',
    'http://0.0.0.0/',
    'http://192.168.1.20/',
    'http://100.100.100.200/',
    'http://localhost:3000/',
    'http://metadata.google.internal/',
    'ftp://example.com/',
  ])('refuses %s at creation', async (url) => {
    const res = await api('post', '/api/admin/webhooks').send({ name: 'ssrf', url, events: ['*'] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details[0].field).toBe('url');
  });

  it('accepts a public address and refuses a private one on update', async () => {
    const created = await api('post', '/api/admin/webhooks').send({
      name: 'public',
      url: 'http://93.184.215.14/hook',
    });
    expect(created.status).toBe(201);
    const res = await api('put', `/api/admin/webhooks/${created.body.data.id}`).send({
      url: 'http://10.0.0.1/',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe('url');
    const kept = await api('get', `/api/admin/webhooks/${created.body.data.id}`);
    expect(kept.body.data.url).toBe('http://93.184.215.14/hook');
  });

  it('refuses at delivery time a stored target that resolves to a blocked address', async () => {
    // A webhook stored before the guard was on (or by a replica configured differently).
    const pg = new Client({ connectionString: databaseUrl(t.masterDatabase) });
    await pg.connect();
    const sealed = t.app.get(SecretBox).encrypt('whsec_c2VjcmV0');
    const urls = [
      receiver.url('/literal'),
      `http://localhost:${receiver.port}/named`,
      `http://[::ffff:127.0.0.1]:${receiver.port}/mapped`,
    ];
    const ids: number[] = [];
    for (const url of urls) {
      const [row] = (
        await pg.query(
          `INSERT INTO webhooks (name, url, events, max_retries, secret_encrypted, secret_preview)
           VALUES ('legacy', $1, '{unit.created}', 0, $2, 'whsec_c2V...') RETURNING id`,
          [url, sealed],
        )
      ).rows;
      ids.push(row.id);
    }
    await pg.end();
    await api('post', '/api/units').send({ name: 'Guarded unit' }).expect(201);
    for (const id of ids) {
      const failed = await until(
        async () => (await api('get', `/api/admin/webhooks/${id}/deliveries`)).body.data[0],
        (d) => d?.status === 'FAILED',
      );
      expect(failed.errorMessage).toMatch(/not allowed|blocked/);
      expect(failed.responseStatus).toBeNull();
    }
    expect(receiver.received).toHaveLength(0);
  });
});
