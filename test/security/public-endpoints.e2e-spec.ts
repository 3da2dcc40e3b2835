import { SmtpSink } from '../support/smtp-sink';
import { bootApp, provisionClient, TestApp } from '../support/test-app';

/**
 * Limits of the public identity endpoints: a per-address budget, no bcrypt for a wrong reset code,
 * and a bounded queue of password hashes. bcrypt cost 13 (about 0.4 s a hash here) makes a hash
 * plainly visible in a response time.
 */
describe('security: public identity endpoints under load', () => {
  let sink: SmtpSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        BCRYPT_ROUNDS: '13',
        TRUST_PROXY_HOPS: '1',
        AUTH_PUBLIC_LIMIT_PER_ADDRESS: '30',
        PASSWORD_HASH_CONCURRENCY: '1',
        PASSWORD_HASH_QUEUE_LIMIT: '2',
      },
    });
    await provisionClient(t, sink, 'acme');
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  const from = (address: string) => ({ 'X-Client-ID': 'acme', 'X-Forwarded-For': address });
  const bogusReset = {
    code: 'f'.repeat(36),
    password: 'Whatever-pass-1',
    passwordConfirmation: 'Whatever-pass-1',
  };

  it('checks a reset code before hashing the new password', async () => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const res = await t.http().post('/auth/reset-password').set('X-Client-ID', 'acme').send(bogusReset);
      times.push(Date.now() - started);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, message: 'Invalid or expired reset code' });
    }
    // One bcrypt hash at cost 13 alone takes longer than this.
    expect(Math.min(...times)).toBeLessThan(250);
  });

  it('shares 30 requests a minute per address between register, confirmation, forgot- and reset-password', async () => {
    const address = '203.0.113.7';
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await t
        .http()
        .post('/auth/local/register')
        .set(from(address))
        .send({ email: 'not-an-address', password: 'x', firstName: 'a', lastName: 'b' });
      statuses.push(res.status);
    }
    for (let i = 0; i < 8; i++) {
      const res = await t
        .http()
        .get('/auth/email-confirmation')
        .query({ confirmation: 'nope' })
        .set(from(address));
      statuses.push(res.status);
    }
    for (let i = 0; i < 7; i++) {
      const res = await t
        .http()
        .post('/auth/forgot-password')
        .set(from(address))
        .send({ email: `someone${i}@acme.test` });
      statuses.push(res.status);
    }
    for (let i = 0; i < 7; i++) {
      statuses.push((await t.http().post('/auth/reset-password').set(from(address)).send(bogusReset)).status);
    }
    expect(statuses).not.toContain(429);

    const over = await t
      .http()
      .post('/auth/forgot-password')
      .set(from(address))
      .send({ email: 'x@acme.test' });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('RATE_LIMITED');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const confirmOver = await t
      .http()
      .get('/auth/email-confirmation')
      .query({ confirmation: 'nope' })
      .set(from(address));
    expect(confirmOver.status).toBe(429);

    // Once refused, the address is turned away before its body is read: even unparseable JSON
    // gets the 429, not a 400.
    const unread = await t
      .http()
      .post('/auth/reset-password')
      .set(from(address))
      .set('Content-Type', 'application/json')
      .send('{"code": ');
    expect(unread.status).toBe(429);
    expect(unread.body).toEqual({
      error: { status: 429, code: 'RATE_LIMITED', message: 'Too many attempts; try again later' },
    });
    expect(Number(unread.headers['retry-after'])).toBeGreaterThan(0);
    expect(unread.headers['x-content-type-options']).toBe('nosniff');

    const elsewhere = await t
      .http()
      .post('/auth/forgot-password')
      .set(from('203.0.113.8'))
      .send({ email: 'x@acme.test' });
    expect(elsewhere.status).toBe(200);
  });

  it('bounds waiting password hashes: past the queue, 503 BUSY with Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t
          .http()
          .post('/auth/local/register')
          .set('X-Client-ID', 'acme')
          .send({
            email: `queued${i}@acme.test`,
            password: 'Queued-pass-1',
            firstName: 'Q',
            lastName: 'Ueued',
          }),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses).toContain(201);
    expect(statuses).toContain(503);
    const busy = answers.find((res) => res.status === 503)!;
    expect(busy.body.error.code).toBe('BUSY');
    expect(busy.headers['retry-after']).toBe('1');
  });
});
