import { Client as PgClient } from 'pg';
import { IDP_CLIENT, TestOidcProvider } from '../sso/support/oidc-idp';
import { authorize, createProvider, queryClientDb } from '../sso/support/sso-helpers';
import { as, createUser, loginFull, queryMaster } from '../identity/identity-helpers';
import { codeFromMail, SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { databaseUrl } from '../support/test-env';

/** Writes to a client's database (to move an expiry into the past). */
async function execClientDb(t: TestApp, client: string, sql: string, params: unknown[] = []) {
  const pg = new PgClient({ connectionString: databaseUrl(`${t.masterDatabase}_${client}`) });
  await pg.connect();
  try {
    await pg.query(sql, params);
  } finally {
    await pg.end();
  }
}

describe('security: self-registration, pending accounts and enumeration', () => {
  let sink: SmtpSink;
  let idp: TestOidcProvider;
  let t: TestApp;
  let acme: ProvisionedClient;
  let beta: ProvisionedClient;

  const register = (email: string, password: string, client?: string) => {
    const req = t.http().post('/auth/local/register');
    if (client) req.set('X-Client-ID', client);
    return req.send({ email, password, firstName: 'Reg', lastName: 'Istrant' });
  };
  const confirm = (token: string, client: string) =>
    t.http().get('/auth/email-confirmation').query({ confirmation: token }).set('X-Client-ID', client);
  /** The confirmation token of the newest confirmation mail to `email` once there are `count`. */
  const confirmationToken = async (email: string, count = 1) => {
    const mails = () =>
      sink.mails.filter((m) => m.to.includes(email) && m.subject === 'Confirm your e-mail address');
    await sink.waitFor(email, () => mails().length >= count);
    return codeFromMail(mails()[count - 1], 'confirmation');
  };

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    idp = await new TestOidcProvider().start();
    idp.addAccount('olivia', { email: 'olivia@acme.test', email_verified: true, name: 'Olivia Oidc' });
    t = await bootApp({
      env: { SMTP_URL: sink.url, SSO_ALLOW_PRIVATE_TARGETS: 'true', SSO_PUBLIC_URL: 'http://sp.test' },
    });
    acme = await provisionClient(t, sink, 'acme', { maxUsers: 3 });
    beta = await provisionClient(t, sink, 'beta');
  });
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
    await sink?.stop();
  });

  it('refuses registration on the master database (403), so nobody becomes a platform user', async () => {
    const res = await register('intruder@evil.test', 'Intruder-pass-1');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('REGISTRATION_CLOSED');
    const rows = await queryMaster(t, `SELECT id FROM users WHERE lower(email) = 'intruder@evil.test'`);
    expect(rows).toHaveLength(0);
  });

  it('closes registration for every client with AUTH_REGISTRATION_ENABLED=false', async () => {
    const closed = await bootApp({
      masterDatabase: t.masterDatabase,
      env: { SMTP_URL: sink.url, AUTH_REGISTRATION_ENABLED: 'false' },
    });
    try {
      const res = await closed
        .http()
        .post('/auth/local/register')
        .set('X-Client-ID', 'beta')
        .send({ email: 'closed@beta.test', password: 'Closed-pass-1', firstName: 'C', lastName: 'D' });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('REGISTRATION_CLOSED');
    } finally {
      await closed.close();
    }
  });

  it('lets pending registrations hold no seat: admin creation and SSO just-in-time still work, confirmation needs a seat', async () => {
    // acme: maxUsers 3, the ADMIN holds one seat.
    for (const email of ['pa@acme.test', 'pb@acme.test', 'olivia@acme.test']) {
      expect((await register(email, 'Attacker-pass-1', 'acme')).status).toBe(201);
    }
    const oliviaLink = await confirmationToken('olivia@acme.test');

    // SSO just-in-time creation: not blocked by the count, and it replaces the pending registration.
    const providerId = await createProvider(t, 'acme', acme.adminToken, {
      name: 'idp-jit',
      displayName: 'Sign in',
      providerType: 'OIDC',
      clientId: IDP_CLIENT.id,
      clientSecret: IDP_CLIENT.secret,
      issuerUrl: idp.issuer,
      scopes: 'openid email profile',
      jitEnabled: true,
    });
    const { authorizationUrl } = await authorize(t, 'acme', { providerId });
    const sso = await t.http().get(await idp.authorize(authorizationUrl, 'olivia'));
    expect(sso.status).toBe(200);
    expect(sso.body.user).toMatchObject({ email: 'olivia@acme.test' });
    expect((await confirm(oliviaLink, 'acme')).status).toBe(400);
    expect((await loginFull(t, 'olivia@acme.test', 'Attacker-pass-1', 'acme')).status).toBe(401);

    // ADMIN creation takes the third seat although two registrations are pending.
    await createUser(
      t,
      acme.adminToken,
      { email: 'u1@acme.test', password: 'User-pass-1', role: 'VIEWER' },
      'acme',
    );
    const full = await confirm(await confirmationToken('pa@acme.test'), 'acme');
    expect(full.status).toBe(409);
    expect(full.body.error.message).toContain('at most 3 users');

    // An expired registration cannot be confirmed and is dropped by the next registration.
    await execClientDb(
      t,
      'acme',
      `UPDATE users SET confirmation_expires_at = now() - interval '1 minute' WHERE email = 'pb@acme.test'`,
    );
    const seatFreed = await t
      .http()
      .delete(
        `/api/admin/users/${(await queryClientDb<{ id: number }>(t, 'acme', `SELECT id FROM users WHERE email = 'u1@acme.test'`))[0].id}`,
      )
      .set(as(acme.adminToken, 'acme'));
    expect(seatFreed.status).toBe(204);
    expect((await confirm(await confirmationToken('pb@acme.test'), 'acme')).status).toBe(400);
    expect((await register('pc@acme.test', 'Someone-pass-1', 'acme')).status).toBe(201);
    const left = await queryClientDb(t, 'acme', `SELECT email FROM users WHERE email = 'pb@acme.test'`);
    expect(left).toHaveLength(0);
    expect((await confirm(await confirmationToken('pa@acme.test'), 'acme')).status).toBe(200);
  });

  it('lets a later registration replace a pending one: the first password and link die', async () => {
    const victim = 'victim@beta.test';
    expect((await register(victim, 'Attacker-pass-1', 'beta')).status).toBe(201);
    const attackerLink = await confirmationToken(victim, 1);
    const mine = await register(victim, 'Victim-pass-1', 'beta');
    expect(mine.status).toBe(201);
    const victimLink = await confirmationToken(victim, 2);
    expect((await confirm(attackerLink, 'beta')).status).toBe(400);
    expect((await confirm(victimLink, 'beta')).status).toBe(200);
    expect((await loginFull(t, victim, 'Attacker-pass-1', 'beta')).status).toBe(401);
    expect((await loginFull(t, victim, 'Victim-pass-1', 'beta')).status).toBe(200);

    const mail = sink.mails.find((m) => m.to.includes(victim) && m.subject === 'Confirm your e-mail address');
    expect(mail?.text).toContain('If it was not you, ignore this e-mail: no account exists');
  });

  it('lets an administrator create the address of a pending registration, discarding it', async () => {
    const email = 'staff@beta.test';
    expect((await register(email, 'Attacker-pass-1', 'beta')).status).toBe(201);
    const attackerLink = await confirmationToken(email);
    await createUser(t, beta.adminToken, { email, password: 'Staff-pass-1', role: 'OPERATOR' }, 'beta');
    expect((await confirm(attackerLink, 'beta')).status).toBe(400);
    expect((await loginFull(t, email, 'Attacker-pass-1', 'beta')).status).toBe(401);
    const ok = await loginFull(t, email, 'Staff-pass-1', 'beta');
    expect(ok.status).toBe(200);
    expect(ok.body.user.role.type).toBe('OPERATOR');
  });

  it('answers a taken address as a new one and mails its owner instead', async () => {
    const fresh = await register('fresh@beta.test', 'Fresh-pass-1', 'beta');
    const taken = await register(beta.adminEmail.toUpperCase(), 'Attacker-pass-1', 'beta');
    expect(taken.status).toBe(fresh.status);
    expect(taken.body).toEqual({ ...fresh.body, data: { ...fresh.body.data, email: beta.adminEmail } });
    const notice = await sink.waitFor(beta.adminEmail, (m) => m.subject === 'You already have an account');
    expect(notice.text).not.toContain('confirmation=');
    expect((await loginFull(t, beta.adminEmail, beta.adminPassword, 'beta')).status).toBe(200);
  });

  it('does the same work in forgot-password for known and unknown addresses', async () => {
    const before = await queryClientDb(t, 'beta', `SELECT id FROM audit_logs`);
    const unknown = await t
      .http()
      .post('/auth/forgot-password')
      .set('X-Client-ID', 'beta')
      .send({ email: 'nobody@beta.test' });
    expect(unknown.status).toBe(200);
    const events = await queryClientDb<{ metadata: Record<string, unknown> }>(
      t,
      'beta',
      `SELECT metadata FROM audit_logs WHERE id > $1 AND metadata->>'event' = 'PASSWORD_RESET_REQUESTED'`,
      [Math.max(0, ...before.map((r) => Number(r.id)))],
    );
    expect(events).toEqual([{ metadata: expect.objectContaining({ mailSent: false }) }]);
  });
});
