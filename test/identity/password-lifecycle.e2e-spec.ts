import { codeFromMail, SmtpSink } from '../support/smtp-sink';
import { login, provisionClient, ProvisionedClient, TestApp } from '../support/test-app';
import { as, bootIdentityApp, createUser, loginFull } from './identity-helpers';

describe('identity: password lifecycle', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let acme: ProvisionedClient;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootIdentityApp({
      env: {
        SMTP_URL: sink.url,
        PUBLIC_APP_URL: 'https://app.example.test',
        AUTH_LOGIN_LIMIT_PER_IDENTIFIER: '50',
      },
    });
    acme = await provisionClient(t, sink, 'acme', { maxUsers: 4 });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  const post = (path: string, body: unknown) =>
    t
      .http()
      .post(path)
      .set('X-Client-ID', 'acme')
      .send(body as object);

  it('resets a password with the code from the mail, on the client’s link, and sends a confirmation', async () => {
    const email = 'reset.me@acme.test';
    await createUser(t, acme.adminToken, { email, password: 'Old-password-1', role: 'OPERATOR' }, 'acme');
    const oldToken = await login(t, email, 'Old-password-1', 'acme');

    const forgot = await post('/auth/forgot-password', { email }).set('Host', 'evil.example.com');
    expect(forgot.status).toBe(200);
    expect(forgot.body.success).toBe(true);
    expect(typeof forgot.body.data).toBe('string');
    const mail = await sink.waitFor(email, (m) => m.subject === 'Reset your password');
    expect(mail.text).toContain('https://app.example.test/reset-password?code=');
    expect(mail.text).not.toContain('evil.example.com');
    const code = codeFromMail(mail);
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    const reset = await post('/auth/reset-password', {
      code,
      password: 'New-password-1',
      passwordConfirmation: 'New-password-1',
    });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ success: true, data: expect.any(String) });
    await sink.waitFor(email, (m) => m.subject === 'Your password was changed');

    const again = await post('/auth/reset-password', {
      code,
      password: 'Other-password-2',
      passwordConfirmation: 'Other-password-2',
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ success: false, message: 'Invalid or expired reset code' });

    const old = await t.http().get('/api/admin/users').set(as(oldToken, 'acme'));
    expect(old.status).toBe(401);
    expect((await loginFull(t, email, 'Old-password-1', 'acme')).status).toBe(401);
    expect((await loginFull(t, email, 'New-password-1', 'acme')).status).toBe(200);
  });

  it('answers forgot-password the same for unknown e-mails, and needs an e-mail', async () => {
    const known = await post('/auth/forgot-password', { email: acme.adminEmail });
    const unknown = await post('/auth/forgot-password', { email: 'nobody@acme.test' });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    const missing = await post('/auth/forgot-password', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ success: false, message: 'Email is required' });
  });

  it('sends at most three reset mails per hour for one e-mail, still answering 200', async () => {
    const email = 'often@acme.test';
    await createUser(t, acme.adminToken, { email, password: 'Often-password-1', role: 'VIEWER' }, 'acme');
    for (let i = 0; i < 4; i++) {
      const res = await post('/auth/forgot-password', { email });
      expect(res.status).toBe(200);
    }
    await sink.waitFor(email, () => sink.mails.filter((m) => m.to.includes(email)).length >= 3);
    await new Promise((r) => setTimeout(r, 500));
    expect(
      sink.mails.filter((m) => m.to.includes(email) && m.subject === 'Reset your password'),
    ).toHaveLength(3);
  });

  it('gives every reset-password error of section 7 in envelope B, and refuses non-string codes', async () => {
    const cases: [unknown, string][] = [
      [
        { code: 'no-such-code', password: 'Long-enough-1', passwordConfirmation: 'Long-enough-1' },
        'Invalid or expired reset code',
      ],
      [
        { code: 'x', password: 'short', passwordConfirmation: 'short' },
        'Password must be at least 8 characters',
      ],
      [
        { code: 'x', password: 'Long-enough-1', passwordConfirmation: 'Different-1' },
        'Password confirmation does not match',
      ],
    ];
    for (const body of [{}, [], null, true]) {
      cases.push([
        { code: body, password: 'Long-enough-1', passwordConfirmation: 'Long-enough-1' },
        'Invalid or expired reset code',
      ]);
    }
    for (const [body, message] of cases) {
      const res = await post('/auth/reset-password', body);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { success: false, message },
      });
    }
  });

  it('changes a password with the exact rules, logs every session out and mails a confirmation', async () => {
    const email = 'changer@acme.test';
    await createUser(t, acme.adminToken, { email, password: 'First-password-1', role: 'VIEWER' }, 'acme');
    const first = await loginFull(t, email, 'First-password-1', 'acme');
    const second = await loginFull(t, email, 'First-password-1', 'acme');
    const token = first.body.jwt as string;
    const change = (body: unknown) =>
      t
        .http()
        .post('/api/custom/change-password')
        .set(as(token, 'acme'))
        .send(body as object);

    for (const [body, message] of [
      [
        { currentPassword: 'wrong', password: 'abcdef', passwordConfirmation: 'abcdef' },
        'Current password is incorrect',
      ],
      [
        { currentPassword: 'First-password-1', password: 'abc', passwordConfirmation: 'abc' },
        'Password must be at least 6 characters',
      ],
      [
        { currentPassword: 'First-password-1', password: 'abcdef', passwordConfirmation: 'abcdeg' },
        'Password confirmation does not match',
      ],
    ] as const) {
      const res = await change(body);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { success: false, message },
      });
    }
    const ok = await change({
      currentPassword: 'First-password-1',
      password: 'abcdef',
      passwordConfirmation: 'abcdef',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, data: null });
    await sink.waitFor(email, (m) => m.subject === 'Your password was changed');

    expect((await t.http().get('/sandboxes').set(as(token, 'acme'))).status).toBe(401);
    expect((await t.http().get('/sandboxes').set(as(second.body.jwt, 'acme'))).status).toBe(401);
    const refresh = await post('/auth/refresh-token', { refreshToken: second.body.refreshToken });
    expect(refresh.status).toBe(401);
    expect((await loginFull(t, email, 'abcdef', 'acme')).status).toBe(200);
  });

  it('registers a blocked VIEWER, confirms the e-mail, and enforces maxUsers', async () => {
    const users = await t.http().get('/api/admin/users').set(as(acme.adminToken, 'acme'));
    expect(users.body.meta.pagination.total).toBe(4);
    const full = await post('/auth/local/register', {
      email: 'newbie@acme.test',
      password: 'Newbie-password-1',
      firstName: 'New',
      lastName: 'Bie',
    });
    expect(full.status).toBe(409);
    const byAdmin = await t
      .http()
      .post('/api/admin/users')
      .set(as(acme.adminToken, 'acme'))
      .send({ email: 'fifth@acme.test', roleId: users.body.data[0].role.id });
    expect(byAdmin.status).toBe(409);
    expect(byAdmin.body.error.message).toContain('at most 4 users');

    const root = await login(t, 'root@platform.test', 'Sup3r-secret-pass');
    const grow = await t.http().put(`/api/platform/clients/${acme.id}`).set(as(root)).send({ maxUsers: 10 });
    expect(grow.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));

    const bad = await post('/auth/local/register', {
      email: 'not-an-email',
      password: 'x',
      firstName: 'a',
      lastName: 'b',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');

    const res = await post('/auth/local/register', {
      email: 'newbie@acme.test',
      password: 'Newbie-password-1',
      firstName: 'New',
      lastName: 'Bie',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ email: 'newbie@acme.test', confirmed: false });
    const blocked = await loginFull(t, 'newbie@acme.test', 'Newbie-password-1', 'acme');
    expect(blocked.status).toBe(403);

    const mail = await sink.waitFor('newbie@acme.test', (m) => m.text.includes('confirmation='));
    const token = codeFromMail(mail, 'confirmation');
    const wrong = await t
      .http()
      .get('/auth/email-confirmation')
      .query({ confirmation: 'nope' })
      .set('X-Client-ID', 'acme');
    expect(wrong.status).toBe(400);
    const confirmed = await t
      .http()
      .get('/auth/email-confirmation')
      .query({ confirmation: token })
      .set('X-Client-ID', 'acme');
    expect(confirmed.status).toBe(200);
    const ok = await loginFull(t, 'newbie@acme.test', 'Newbie-password-1', 'acme');
    expect(ok.status).toBe(200);
    expect(ok.body.user.role.type).toBe('VIEWER');

    // A taken address answers as a new one (no enumeration); its owner gets a notice instead.
    const dup = await post('/auth/local/register', {
      email: 'NEWBIE@acme.test',
      password: 'Other-password-1',
      firstName: 'New',
      lastName: 'Bie',
    });
    expect(dup.status).toBe(201);
    expect(dup.body).toEqual(res.body);
    await sink.waitFor('newbie@acme.test', (m) => m.subject === 'You already have an account');
    expect((await loginFull(t, 'newbie@acme.test', 'Newbie-password-1', 'acme')).status).toBe(200);
  });
});
