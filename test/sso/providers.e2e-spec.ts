import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { IDP_CLIENT, TestOidcProvider } from './support/oidc-idp';
import { TestSamlIdp } from './support/saml-idp';
import { queryClientDb } from './support/sso-helpers';

const PATH = '/api/admin/identity-providers';

describe('SSO: identity-provider administration', () => {
  let sink: SmtpSink;
  let idp: TestOidcProvider;
  let strict: TestApp;
  let t: TestApp;
  let acme: ProvisionedClient;

  const as = (app: TestApp) => ({
    get: (path: string) =>
      app.http().get(path).set('X-Client-ID', 'acme').set('Authorization', `Bearer ${acme.adminToken}`),
    post: (path: string, body: object = {}) =>
      app
        .http()
        .post(path)
        .set('X-Client-ID', 'acme')
        .set('Authorization', `Bearer ${acme.adminToken}`)
        .send(body),
    put: (path: string, body: object) =>
      app
        .http()
        .put(path)
        .set('X-Client-ID', 'acme')
        .set('Authorization', `Bearer ${acme.adminToken}`)
        .send(body),
    delete: (path: string) =>
      app.http().delete(path).set('X-Client-ID', 'acme').set('Authorization', `Bearer ${acme.adminToken}`),
  });

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    idp = await new TestOidcProvider().start();
    strict = await bootApp({ env: { SMTP_URL: sink.url } });
    acme = await provisionClient(strict, sink, 'acme');
    t = await bootApp({
      masterDatabase: strict.masterDatabase,
      env: { SMTP_URL: sink.url, SSO_ALLOW_PRIVATE_TARGETS: 'true' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await strict?.close();
    await idp?.stop();
    await sink?.stop();
  });

  it('creates, reads, updates and deletes a provider; accepts the earlier field names; never shows the secret', async () => {
    const secret = 'very-secret-client-secret-value';
    const created = await as(t).post(PATH, {
      name: 'corp',
      displayName: 'Corporate login',
      type: 'OIDC',
      clientId: 'svc',
      clientSecret: secret,
      issuerUrl: idp.issuer,
      isEnabled: false,
      companyId: 1,
      jitEnabled: true,
      allowedDomains: 'Acme.test, @acme.de',
      attributeMapping: { email: 'mail', firstName: 'given_name' },
    });
    expect(created.status).toBe(201);
    const p = created.body.data;
    expect(p).toMatchObject({
      name: 'corp',
      providerType: 'OIDC',
      enabled: false,
      companyId: 1,
      hasClientSecret: true,
      allowedDomains: 'acme.test,acme.de',
      attributeMapping: { email: 'mail', firstName: 'given_name' },
      callbackUrl: `http://localhost:3000/auth/sso/callback/${p.id}`,
    });
    expect(p).not.toHaveProperty('clientSecret');
    expect(JSON.stringify(created.body)).not.toContain(secret);
    const [row] = await queryClientDb<{ client_secret: string }>(
      t,
      'acme',
      'SELECT client_secret FROM identity_providers WHERE id = $1',
      [p.id],
    );
    expect(row.client_secret).toMatch(/^v1:/);
    expect(row.client_secret).not.toContain(secret);

    const list = await as(t).get(PATH);
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: number }) => x.id)).toContain(p.id);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect((await t.http().get('/auth/sso/providers').set('X-Client-ID', 'acme')).body.data).toEqual([]);

    const updated = await as(t).put(`${PATH}/${p.id}`, { displayName: 'Corp SSO', enabled: true });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      displayName: 'Corp SSO',
      enabled: true,
      hasClientSecret: true,
    });
    const publicList = await t.http().get('/auth/sso/providers').set('X-Client-ID', 'acme');
    expect(publicList.body.data).toEqual([
      { id: p.id, name: 'corp', displayName: 'Corp SSO', providerType: 'OIDC' },
    ]);

    const duplicate = await as(t).post(PATH, {
      name: 'CORP',
      displayName: 'x',
      providerType: 'OIDC',
      clientId: 'a',
      issuerUrl: idp.issuer,
    });
    expect(duplicate.status).toBe(409);

    const audits = await queryClientDb(
      t,
      'acme',
      `SELECT action, changes FROM audit_logs WHERE entity_type = 'IdentityProvider' ORDER BY id`,
    );
    expect(audits.map((a) => a.action)).toEqual(['CREATE', 'UPDATE']);
    expect(JSON.stringify(audits)).not.toContain(secret);

    expect((await as(t).delete(`${PATH}/${p.id}`)).status).toBe(204);
    const gone = await as(t).get(`${PATH}/${p.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('NOT_FOUND');
  });

  it('answers clear validation errors', async () => {
    const unknown = await as(t).post(PATH, {
      name: 'x',
      displayName: 'x',
      providerType: 'OIDC',
      clientId: 'a',
      issuerUrl: idp.issuer,
      bogus: 1,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_ERROR');
    const noType = await as(t).post(PATH, { name: 'x', displayName: 'x' });
    expect(noType.status).toBe(400);
    expect(noType.body.error.details).toEqual([expect.objectContaining({ field: 'providerType' })]);
    const samlMissing = await as(t).post(PATH, {
      name: 's',
      displayName: 's',
      providerType: 'SAML',
      entityId: 'e',
    });
    expect(samlMissing.status).toBe(400);
    expect(samlMissing.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'idpCertificate',
      'ssoUrl',
    ]);
    const badPem = await as(t).post(PATH, {
      name: 's',
      displayName: 's',
      providerType: 'SAML',
      entityId: 'e',
      ssoUrl: 'https://idp/sso',
      idpCertificate: '-----BEGIN CERTIFICATE-----\nnot a cert\n-----END CERTIFICATE-----',
    });
    expect(badPem.status).toBe(400);
    expect(badPem.body.error.details[0].field).toBe('idpCertificate');
    const badMapping = await as(t).post(PATH, {
      name: 'm',
      displayName: 'm',
      providerType: 'OIDC',
      clientId: 'a',
      issuerUrl: idp.issuer,
      attributeMapping: { role: 'groups' },
    });
    expect(badMapping.status).toBe(400);
    expect(badMapping.body.error.details[0].field).toBe('attributeMapping.role');
    const badUrl = await as(t).post(PATH, {
      name: 'u',
      displayName: 'u',
      providerType: 'OIDC',
      clientId: 'a',
      discoveryUri: 'file:///etc/passwd',
    });
    expect(badUrl.status).toBe(400);
    const superRole = await as(t).post(PATH, {
      name: 'r',
      displayName: 'r',
      providerType: 'OIDC',
      clientId: 'a',
      issuerUrl: idp.issuer,
      jitDefaultRoleId: (
        await queryClientDb<{ id: number }>(t, 'acme', `SELECT id FROM roles WHERE type = 'SUPER_ADMIN'`)
      )[0].id,
    });
    expect(superRole.status).toBe(400);
    const saml = new TestSamlIdp();
    const okSaml = await as(t).post(PATH, {
      name: 'saml',
      displayName: 'SAML',
      providerType: 'SAML',
      entityId: 'e',
      ssoUrl: 'https://idp/sso',
      idpCertificate: saml.key.certificatePem,
    });
    expect(okSaml.status).toBe(201);
    expect(okSaml.body.data.wantAssertionsSigned).toBe(true);
    const tested = await as(t).post(`${PATH}/${okSaml.body.data.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body.data).toMatchObject({ status: 'SUCCESS', issuer: 'e' });
  });

  it('lists presets and fills a preset’s defaults', async () => {
    const res = await as(t).get(`${PATH}/presets`);
    expect(res.status).toBe(200);
    const keys = res.body.data.map((p: { key: string }) => p.key);
    expect(keys).toEqual(
      expect.arrayContaining(['MICROSOFT_ENTRA_ID', 'GOOGLE', 'OKTA', 'AUTH0', 'KEYCLOAK']),
    );
    for (const preset of res.body.data)
      expect(preset.requiredFields).toEqual(expect.arrayContaining(['clientId']));
    const google = await as(t).post(PATH, {
      name: 'google',
      displayName: 'Google',
      providerType: 'OIDC',
      presetProvider: 'GOOGLE',
      clientId: 'g',
      clientSecret: 's',
    });
    expect(google.status).toBe(201);
    expect(google.body.data).toMatchObject({
      discoveryUri: 'https://accounts.google.com/.well-known/openid-configuration',
      scopes: 'openid profile email',
      attributeMapping: expect.objectContaining({ email: 'email', firstName: 'given_name' }),
    });
    const entra = await as(t).post(PATH, {
      name: 'entra',
      displayName: 'Entra',
      providerType: 'OIDC',
      presetProvider: 'MICROSOFT_ENTRA_ID',
      clientId: 'g',
    });
    expect(entra.status).toBe(400);
    expect(entra.body.error.details[0].field).toBe('discoveryUri');
  });

  it('discovers an OIDC provider and tests a connection', async () => {
    const found = await as(t).post(`${PATH}/discover`, { issuerUrl: idp.issuer });
    expect(found.status).toBe(200);
    expect(found.body.data).toMatchObject({
      issuer: idp.issuer,
      authorizationUri: `${idp.issuer}/auth`,
      tokenUri: `${idp.issuer}/token`,
      jwksUri: `${idp.issuer}/jwks`,
    });
    expect(found.body.data.codeChallengeMethodsSupported).toContain('S256');

    const ok = await as(t).post(PATH, {
      name: 'live',
      displayName: 'Live',
      providerType: 'OIDC',
      clientId: 'c',
      discoveryUri: `${idp.issuer}/.well-known/openid-configuration`,
    });
    const tested = await as(t).post(`${PATH}/${ok.body.data.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body.data).toMatchObject({ status: 'SUCCESS', issuer: idp.issuer });
    expect(new Date(tested.body.data.testedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const dead = await as(t).post(PATH, {
      name: 'dead',
      displayName: 'Dead',
      providerType: 'OIDC',
      clientId: 'c',
      issuerUrl: 'http://127.0.0.1:9',
    });
    const failed = await as(t).post(`${PATH}/${dead.body.data.id}/test`);
    expect(failed.status).toBe(200);
    expect(failed.body.data.status).toBe('FAILED');
    expect(failed.body.data.message).toEqual(expect.any(String));
  });

  it('never calls loopback, private or link-local targets unless allowed', async () => {
    const port = new URL(idp.issuer).port;
    for (const issuerUrl of [
      idp.issuer,
      `http://localhost:${port}`,
      'http://169.254.169.254',
      'http://10.0.0.1',
      'http://[::1]:80',
    ]) {
      const res = await as(strict).post(`${PATH}/discover`, { issuerUrl });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('SSO_TARGET_NOT_ALLOWED');
    }
    const ftp = await as(strict).post(`${PATH}/discover`, { discoveryUri: 'ftp://example.com/x' });
    expect(ftp.status).toBe(400);
    expect(ftp.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('refuses token and userinfo calls to names that resolve to loopback', async () => {
    const local = idp.issuer.replace('127.0.0.1', 'localhost');
    const created = await as(strict).post(PATH, {
      name: 'local-oauth',
      displayName: 'Local',
      providerType: 'OAUTH2',
      clientId: IDP_CLIENT.id,
      clientSecret: IDP_CLIENT.secret,
      authorizationUri: `${local}/auth`,
      tokenUri: `${local}/token`,
      userInfoUri: `${local}/me`,
      scopes: 'openid email',
      jitEnabled: true,
    });
    expect(created.status).toBe(201);
    const started = await strict
      .http()
      .post('/auth/sso/authorize')
      .set('X-Client-ID', 'acme')
      .send({ providerId: created.body.data.id });
    expect(started.status).toBe(200);
    const state = started.body.data.state;
    const callback = await strict
      .http()
      .get(`/auth/sso/callback/${created.body.data.id}?code=anything&state=${encodeURIComponent(state)}`);
    expect(callback.status).toBe(502);
    expect(callback.body.error.message).toMatch(/private, loopback or link-local/);
  });

  it('is for admins only', async () => {
    expect((await t.http().get(PATH).set('X-Client-ID', 'acme')).status).toBe(401);
  });
});
