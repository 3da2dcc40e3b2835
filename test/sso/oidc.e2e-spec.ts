import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { IDP_CLIENT, TestOidcProvider } from './support/oidc-idp';
import { auditEvents, authorize, createProvider, queryClientDb } from './support/sso-helpers';

const ALLOWED = 'https://app.example.com';

describe('SSO: OpenID Connect with a real OpenID provider', () => {
  let sink: SmtpSink;
  let idp: TestOidcProvider;
  let t: TestApp;
  let acme: ProvisionedClient;
  let beta: ProvisionedClient;
  let jitProvider: number;

  const oidcProvider = (name: string, extra: Record<string, unknown> = {}) =>
    createProvider(t, 'acme', acme.adminToken, {
      name,
      displayName: `Sign in with ${name}`,
      providerType: 'OIDC',
      clientId: IDP_CLIENT.id,
      clientSecret: IDP_CLIENT.secret,
      issuerUrl: idp.issuer,
      scopes: 'openid email profile',
      ...extra,
    });

  /** authorize → IdP login → our callback; answers the callback response. */
  const login = async (providerId: number, account: string, extra: Record<string, unknown> = {}) => {
    const { authorizationUrl } = await authorize(t, 'acme', { providerId, ...extra });
    const back = await idp.authorize(authorizationUrl, account);
    return t.http().get(back);
  };

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    idp = await new TestOidcProvider().start();
    idp.addAccount('alice', {
      email: 'alice@acme.test',
      email_verified: true,
      given_name: 'Alice',
      family_name: 'Liddell',
      role: 'SUPER_ADMIN',
    });
    idp.addAccount('olivia', {
      email: 'olivia@acme.test',
      email_verified: true,
      name: 'Olivia Oauth',
      phone_number: '+41 79 555 01 02',
    });
    idp.addAccount('mallory', { email: 'mallory@evil.test', email_verified: true });
    idp.addAccount('nomail', { given_name: 'No', family_name: 'Mail' });
    idp.addAccount('admin-verified', { email: 'admin@acme.test', email_verified: true });
    idp.addAccount('admin-unverified', { email: 'admin@acme.test', email_verified: false });
    idp.addAccount('admin-other', { email: 'admin.other@acme.test', email_verified: true });
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        SSO_ALLOW_PRIVATE_TARGETS: 'true',
        SSO_PUBLIC_URL: 'http://sp.test',
        SSO_REDIRECT_ALLOWLIST: ALLOWED,
      },
    });
    acme = await provisionClient(t, sink, 'acme');
    beta = await provisionClient(t, sink, 'beta');
    jitProvider = await oidcProvider('idp-jit', { jitEnabled: true, allowedDomains: 'acme.test' });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
    await sink?.stop();
  });

  it('runs the code flow with PKCE to our JWT, provisioning the user just in time', async () => {
    const { authorizationUrl, state } = await authorize(t, 'acme', { providerId: jitProvider });
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('state')).toBe(state);

    const back = await idp.authorize(authorizationUrl, 'alice');
    const res = await t.http().get(back);
    expect(res.status).toBe(200);
    expect(res.headers['x-current-client']).toBe('master');
    expect(res.body.jwt).toEqual(expect.any(String));
    expect(res.body.refreshToken).toEqual(expect.any(String));
    expect(res.body.user).toMatchObject({
      email: 'alice@acme.test',
      firstName: 'Alice',
      lastName: 'Liddell',
    });
    expect(res.body.user.role.type).toBe('VIEWER');
    expect(res.body.sandbox).toMatchObject({ slug: 'main', schemaName: 'public', isMain: true });

    const linked = await t
      .http()
      .get('/auth/sso/linked-accounts')
      .set('X-Client-ID', 'acme')
      .set('Authorization', `Bearer ${res.body.jwt}`);
    expect(linked.status).toBe(200);
    expect(linked.body.data).toEqual([
      expect.objectContaining({ providerId: jitProvider, subject: 'alice', email: 'alice@acme.test' }),
    ]);
    const admin = await t
      .http()
      .get('/api/admin/identity-providers')
      .set('X-Client-ID', 'acme')
      .set('Authorization', `Bearer ${res.body.jwt}`);
    expect(admin.status).toBe(403);
    const elsewhere = await t
      .http()
      .get('/auth/sso/linked-accounts')
      .set('X-Client-ID', 'beta')
      .set('Authorization', `Bearer ${res.body.jwt}`);
    expect(elsewhere.status).toBe(401);

    const again = await login(jitProvider, 'alice');
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(res.body.user.id);
    expect(await auditEvents(t, 'acme', 'USER_PROVISIONED')).toEqual([
      expect.objectContaining({ action: 'CREATE', user_id: res.body.user.id }),
    ]);
    const successes = await auditEvents(t, 'acme', 'SSO_LOGIN_SUCCESS');
    expect(successes.filter((e) => e.user_id === res.body.user.id)).toHaveLength(2);
    expect(successes[0]).toMatchObject({ action: 'LOGIN' });
  });

  it('refuses a domain outside allowedDomains and creates nobody', async () => {
    const res = await login(jitProvider, 'mallory');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('SSO_DOMAIN_NOT_ALLOWED');
    const users = await queryClientDb(t, 'acme', `SELECT id FROM users WHERE email = 'mallory@evil.test'`);
    expect(users).toHaveLength(0);
    const failures = await auditEvents(t, 'acme', 'SSO_LOGIN_FAILED');
    expect(failures.at(-1)).toMatchObject({
      action: 'LOGIN',
      metadata: expect.objectContaining({ success: false }),
    });
  });

  it('refuses to provision without an e-mail or with JIT off', async () => {
    const noMail = await login(jitProvider, 'nomail');
    expect(noMail.status).toBe(403);
    expect(noMail.body.error.code).toBe('SSO_USER_NOT_PROVISIONED');

    const noJit = await oidcProvider('idp-nojit');
    const res = await login(noJit, 'admin-other');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('SSO_USER_NOT_PROVISIONED');
    expect(
      await queryClientDb(t, 'acme', `SELECT id FROM users WHERE email = 'admin.other@acme.test'`),
    ).toEqual([]);
  });

  it('auto-links an existing user only by a verified e-mail', async () => {
    const linking = await oidcProvider('idp-autolink', { autoLinkByEmail: true });
    const unverified = await login(linking, 'admin-unverified');
    expect(unverified.status).toBe(403);
    expect(unverified.body.error.code).toBe('SSO_ACCOUNT_NOT_LINKED');

    const plain = await oidcProvider('idp-nolink');
    const byEmailOnly = await login(plain, 'admin-verified');
    expect(byEmailOnly.status).toBe(403);
    expect(byEmailOnly.body.error.code).toBe('SSO_ACCOUNT_NOT_LINKED');

    const res = await login(linking, 'admin-verified');
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(acme.adminEmail);
    expect(res.body.user.role.type).toBe('ADMIN');
    const linked = await auditEvents(t, 'acme', 'ACCOUNT_LINKED');
    expect(linked.at(-1)).toMatchObject({ action: 'UPDATE', user_id: res.body.user.id });
  });

  it('refuses a tampered state, a replayed callback and a state of another provider', async () => {
    const { authorizationUrl } = await authorize(t, 'acme', { providerId: jitProvider });
    const back = new URL(await idp.authorize(authorizationUrl, 'alice'), 'http://sp.test');
    const state = back.searchParams.get('state')!;
    const [body, mac] = state.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...claims, client: 'beta' })).toString('base64url')}.${mac}`;
    const tampered = new URL(back);
    tampered.searchParams.set('state', forged);
    const bad = await t.http().get(`${tampered.pathname}${tampered.search}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_STATE');

    const wrongPath = await t.http().get(`/auth/sso/callback/${jitProvider + 100}${back.search}`);
    expect(wrongPath.status).toBe(400);
    expect(wrongPath.body.error.code).toBe('INVALID_STATE');

    const ok = await t.http().get(`${back.pathname}${back.search}`);
    expect(ok.status).toBe(200);
    const replay = await t.http().get(`${back.pathname}${back.search}`);
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe('INVALID_STATE');

    const missing = await t.http().get(`/auth/sso/callback/${jitProvider}?code=abc`);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('INVALID_STATE');
  });

  it('refuses a state older than SSO_STATE_TTL_SECONDS', async () => {
    const shortLived = await bootApp({
      masterDatabase: t.masterDatabase,
      env: { ...pick(t.env), SSO_STATE_TTL_SECONDS: '1' },
    });
    try {
      const res = await shortLived
        .http()
        .post('/auth/sso/authorize')
        .set('X-Client-ID', 'acme')
        .send({ providerId: jitProvider });
      expect(res.status).toBe(200);
      const back = await idp.authorize(res.body.data.authorizationUrl, 'alice');
      await new Promise((r) => setTimeout(r, 1200));
      const late = await shortLived.http().get(back);
      expect(late.status).toBe(400);
      expect(late.body.error.code).toBe('INVALID_STATE');
      expect(late.body.error.message).toMatch(/expired/i);
    } finally {
      await shortLived.close();
    }
  });

  it('validates the ID token: a token for another audience is refused, the same token for us accepted', async () => {
    const forge = async (aud: string) => {
      const { authorizationUrl } = await authorize(t, 'acme', { providerId: jitProvider });
      const back = await idp.authorize(authorizationUrl, 'alice');
      const now = Math.floor(Date.now() / 1000);
      idp.forgedIdToken = idp.sign({
        iss: idp.issuer,
        sub: 'alice',
        aud,
        iat: now,
        exp: now + 300,
        nonce: new URL(authorizationUrl).searchParams.get('nonce'),
        email: 'alice@acme.test',
        email_verified: true,
      });
      try {
        return await t.http().get(back);
      } finally {
        idp.forgedIdToken = undefined;
      }
    };
    const wrong = await forge('some-other-client');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('SSO_LOGIN_FAILED');
    expect(wrong.body.error.message).toMatch(/aud/);
    const right = await forge(IDP_CLIENT.id);
    expect(right.status).toBe(200);
    expect(right.body.user.email).toBe('alice@acme.test');
  });

  it('redirects only to allow-listed targets, with a one-time code for /auth/sso/exchange', async () => {
    for (const redirectUri of [
      '//evil.com',
      'javascript:alert(1)',
      'https://evil.com/x',
      `${ALLOWED}@evil.com`,
    ]) {
      const res = await t
        .http()
        .post('/auth/sso/authorize')
        .set('X-Client-ID', 'acme')
        .send({ providerId: jitProvider, redirectUri });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('SSO_REDIRECT_NOT_ALLOWED');
    }
    const res = await login(jitProvider, 'alice', { redirectUri: `${ALLOWED}/sso/done` });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.location);
    expect(location.origin).toBe(ALLOWED);
    const code = location.searchParams.get('code')!;
    const exchanged = await t.http().post('/auth/sso/exchange').send({ code });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.user.email).toBe('alice@acme.test');
    expect(exchanged.body.jwt).toEqual(expect.any(String));
    const twice = await t.http().post('/auth/sso/exchange').send({ code });
    expect(twice.status).toBe(400);
    expect(twice.body.error.code).toBe('INVALID_CODE');
  });

  it('keeps providers inside their client', async () => {
    const fromBeta = await t
      .http()
      .post('/auth/sso/authorize')
      .set('X-Client-ID', 'beta')
      .send({ providerId: jitProvider });
    expect(fromBeta.status).toBe(404);
    const list = await t.http().get('/auth/sso/providers').set('X-Client-ID', 'beta');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    const acmeList = await t.http().get('/sso/providers').set('X-Client-ID', 'acme');
    expect(acmeList.body.data.length).toBeGreaterThan(0);
    expect(Object.keys(acmeList.body.data[0]).sort()).toEqual(['displayName', 'id', 'name', 'providerType']);
    expect(beta.identifier).toBe('beta');
  });

  it('signs in through a plain OAuth 2.0 provider (userinfo) and through the older paths', async () => {
    const [operatorRole] = await queryClientDb<{ id: number }>(
      t,
      'acme',
      `SELECT id FROM roles WHERE type = 'OPERATOR'`,
    );
    const oauth = await createProvider(t, 'acme', acme.adminToken, {
      name: 'idp-oauth2',
      displayName: 'OAuth 2.0',
      providerType: 'OAUTH2',
      clientId: IDP_CLIENT.id,
      clientSecret: IDP_CLIENT.secret,
      authorizationUri: `${idp.issuer}/auth`,
      tokenUri: `${idp.issuer}/token`,
      userInfoUri: `${idp.issuer}/me`,
      scopes: 'openid email profile',
      jitEnabled: true,
      jitDefaultRoleId: operatorRole.id,
      jitDefaultProfileId: 7,
    });
    const { authorizationUrl } = await authorize(t, 'acme', { providerId: oauth });
    expect(new URL(authorizationUrl).searchParams.get('nonce')).toBeNull();
    expect(new URL(authorizationUrl).searchParams.get('code_challenge')).toBeTruthy();
    const res = await t.http().get(await idp.authorize(authorizationUrl, 'olivia'));
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      email: 'olivia@acme.test',
      firstName: 'Olivia',
      lastName: 'Oauth',
    });
    expect(res.body.user.role).toMatchObject({ id: operatorRole.id, type: 'OPERATOR' });
    const provisioned = await auditEvents(t, 'acme', 'USER_PROVISIONED');
    expect(provisioned.at(-1)).toMatchObject({
      user_id: res.body.user.id,
      metadata: expect.objectContaining({ providerId: oauth, jitDefaultProfileId: 7 }),
    });
    const [stored] = await queryClientDb(
      t,
      'acme',
      'SELECT phone_number, profile_id FROM users WHERE id = $1',
      [res.body.user.id],
    );
    expect(stored).toEqual({ phone_number: '+41 79 555 01 02', profile_id: 7 });

    const legacy = await t.http().get('/sso/login/idp-jit?client=acme');
    expect(legacy.status).toBe(302);
    expect(new URL(legacy.headers.location).origin).toBe(idp.issuer);
    const back = new URL(await idp.authorize(legacy.headers.location, 'alice'), 'http://sp.test');
    const viaAlias = await t.http().get(`/sso/callback/oidc${back.search}`);
    expect(viaAlias.status).toBe(200);
    expect(viaAlias.body.user.email).toBe('alice@acme.test');
    expect((await t.http().get('/sso/login/nope?client=acme')).status).toBe(404);
  });

  it('links and unlinks an account for a signed-in user', async () => {
    const provider = await oidcProvider('idp-link');
    const start = await t
      .http()
      .post('/auth/sso/link')
      .set('X-Client-ID', 'acme')
      .set('Authorization', `Bearer ${acme.adminToken}`)
      .send({ providerId: provider });
    expect(start.status).toBe(200);
    const back = await idp.authorize(start.body.data.authorizationUrl, 'admin-other');
    const cookie = (start.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]);
    const done = await t.http().get(back).set('Cookie', cookie);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ linked: true, providerId: provider });
    const relogin = await login(provider, 'admin-other');
    expect(relogin.status).toBe(200);
    expect(relogin.body.user.email).toBe(acme.adminEmail);

    const auth = { 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` };
    const list = await t.http().get('/auth/sso/linked-accounts').set(auth);
    expect(list.body.data.map((a: { providerId: number }) => a.providerId)).toContain(provider);
    expect((await t.http().delete(`/auth/sso/link/${provider}`).set(auth)).status).toBe(204);
    expect((await t.http().delete(`/auth/sso/link/${provider}`).set(auth)).status).toBe(404);
    const after = await login(provider, 'admin-other');
    expect(after.status).toBe(403);
  });
});

function pick(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>;
}
