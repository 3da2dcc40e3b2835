import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { IDP_CLIENT, TestOidcProvider } from './support/oidc-idp';
import { authorize, createProvider, queryClientDb } from './support/sso-helpers';
import { parseDatabaseUrl, withAdminConnection } from '../../src/database/data-source-factory';
import { ADMIN_URL } from '../support/test-env';

/** SSO honours two-factor enrolment; an account link completes only in the browser that started it. */
describe('SSO hardening', () => {
  let sink: SmtpSink;
  let idp: TestOidcProvider;
  let t: TestApp;
  let acme: ProvisionedClient;
  let provider: number;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    idp = await new TestOidcProvider().start();
    idp.addAccount('twofa', { email: 'twofa@acme.test', email_verified: true });
    idp.addAccount('victim', { email: 'victim@acme.test', email_verified: true });
    t = await bootApp({
      env: { SMTP_URL: sink.url, SSO_ALLOW_PRIVATE_TARGETS: 'true', SSO_PUBLIC_URL: 'http://sp.test' },
    });
    acme = await provisionClient(t, sink, 'acme');
    provider = await createProvider(t, 'acme', acme.adminToken, {
      name: 'idp-hard',
      displayName: 'Hardened',
      providerType: 'OIDC',
      clientId: IDP_CLIENT.id,
      clientSecret: IDP_CLIENT.secret,
      issuerUrl: idp.issuer,
      scopes: 'openid email profile',
      jitEnabled: true,
    });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
    await sink?.stop();
  });

  const ssoLogin = async (account: string) => {
    const { authorizationUrl } = await authorize(t, 'acme', { providerId: provider });
    return t.http().get(await idp.authorize(authorizationUrl, account));
  };

  it('answers the two-factor challenge, not tokens, for a user enrolled in 2FA', async () => {
    const plain = await ssoLogin('twofa');
    expect(plain.status).toBe(200);
    expect(plain.body.jwt).toEqual(expect.any(String));
    const target = { ...parseDatabaseUrl(ADMIN_URL), database: `${t.masterDatabase}_acme` };
    await withAdminConnection(target, (pg) =>
      pg.query(`UPDATE users SET two_factor_enabled = true, two_factor_secret = 'x' WHERE email = $1`, [
        'twofa@acme.test',
      ]),
    );
    const res = await ssoLogin('twofa');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requires2FA: true, tempToken: expect.any(String) });
    const bearer = await t
      .http()
      .get('/auth/sso/linked-accounts')
      .set('X-Client-ID', 'acme')
      .set('Authorization', `Bearer ${res.body.tempToken}`);
    expect([401, 403]).toContain(bearer.status);
    await withAdminConnection(target, (pg) =>
      pg.query(`UPDATE users SET two_factor_enabled = false, two_factor_secret = NULL WHERE email = $1`, [
        'twofa@acme.test',
      ]),
    );
  });

  it('refuses to complete a link in a browser that did not start it', async () => {
    const auth = { 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` };
    const start = await t.http().post('/auth/sso/link').set(auth).send({ providerId: provider });
    expect(start.status).toBe(200);
    const setCookie = start.headers['set-cookie'] as unknown as string[];
    expect(setCookie.join(';')).toMatch(/svc_sso_link=.*HttpOnly/);
    // The attacker's link URL, finished by the victim's browser (no binding cookie).
    const back = await idp.authorize(start.body.data.authorizationUrl, 'victim');
    const forged = await t.http().get(back);
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe('INVALID_STATE');
    const links = await queryClientDb(t, 'acme', `SELECT 1 FROM sso_identities WHERE subject = 'victim'`);
    expect(links).toHaveLength(0);

    // Another browser's cookie does not match either; the starting browser's does.
    const again = await t.http().post('/auth/sso/link').set(auth).send({ providerId: provider });
    const other = await t.http().post('/auth/sso/link').set(auth).send({ providerId: provider });
    const cookieOf = (r: typeof again) =>
      (r.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]);
    const wrong = await t
      .http()
      .get(await idp.authorize(again.body.data.authorizationUrl, 'victim'))
      .set('Cookie', cookieOf(other));
    expect(wrong.status).toBe(400);
    const third = await t.http().post('/auth/sso/link').set(auth).send({ providerId: provider });
    const done = await t
      .http()
      .get(await idp.authorize(third.body.data.authorizationUrl, 'victim'))
      .set('Cookie', cookieOf(third));
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ linked: true, providerId: provider });
  });
});
