import { SAML } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { encode, IDP_ENTITY_ID, TestSamlIdp } from './support/saml-idp';
import { authorize, createProvider, queryClientDb } from './support/sso-helpers';

const SP = 'http://sp.test';
const ACS = `${SP}/auth/sso/saml/acs`;
const SP_ENTITY = `${SP}/auth/sso/saml/metadata`;
const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';

describe('SSO: SAML 2.0 with an identity provider built in the test', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let acme: ProvisionedClient;
  let providerId: number;
  const idp = new TestSamlIdp();
  const samlProvider = {
    name: 'corp-saml',
    displayName: 'Corporate SAML',
    type: 'SAML',
    entityId: IDP_ENTITY_ID,
    ssoUrl: 'https://idp.test/sso',
    sloUrl: 'https://idp.test/slo',
    certificate: idp.key.certificatePem,
    signingAlgorithm: 'RSA_SHA256',
    nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    wantAssertionsSigned: true,
    wantAuthnRequestsSigned: true,
    isEnabled: true,
    jitEnabled: true,
    allowedDomains: 'acme.test',
    attributeMapping: { email: 'email', firstName: 'firstName', lastName: 'lastName' },
  };

  const base = (nameId: string) => ({
    nameId,
    audience: SP_ENTITY,
    acsUrl: ACS,
    attributes: { email: nameId, firstName: 'Sam', lastName: 'Ell', role: 'SUPER_ADMIN' },
  });

  /** An SP-initiated login: our AuthnRequest id and the signed state to post back as RelayState. */
  const start = async () => {
    const { authorizationUrl, state } = await authorize(t, 'acme', { providerId });
    const request = TestSamlIdp.requestOf(authorizationUrl);
    return { requestId: request.id, state, request, authorizationUrl };
  };
  const post = (xml: string, relayState?: string, path = '/auth/sso/saml/acs') =>
    t
      .http()
      .post(path)
      .type('form')
      .send({ SAMLResponse: encode(xml), ...(relayState ? { RelayState: relayState } : {}) });

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({
      env: { SMTP_URL: sink.url, SSO_PUBLIC_URL: SP, SSO_REDIRECT_ALLOWLIST: 'https://app.test' },
    });
    acme = await provisionClient(t, sink, 'acme');
    providerId = await createProvider(t, 'acme', acme.adminToken, samlProvider);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  it('publishes SP metadata with the entity id, ACS URL and NameID formats', async () => {
    const res = await t.http().get('/auth/sso/saml/metadata');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/xml/);
    const doc = new DOMParser().parseFromString(res.text, 'text/xml');
    const root = doc.documentElement!;
    expect(root.localName).toBe('EntityDescriptor');
    expect(root.getAttribute('entityID')).toBe(SP_ENTITY);
    const acs = doc.getElementsByTagNameNS(MD, 'AssertionConsumerService');
    expect(acs.length).toBe(1);
    expect(acs[0].getAttribute('Location')).toBe(ACS);
    expect(acs[0].getAttribute('Binding')).toBe('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    const formats = Array.from(doc.getElementsByTagNameNS(MD, 'NameIDFormat')).map((n) => n.textContent);
    expect(formats).toContain('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    expect(doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'X509Certificate').length).toBe(
      1,
    );
  });

  it('signs the AuthnRequest and signs the user in from a signed assertion (JIT, role claim ignored)', async () => {
    const { requestId, state, request, authorizationUrl } = await start();
    expect(new URL(authorizationUrl).origin).toBe('https://idp.test');
    expect(request.relayState).toBe(state);
    expect(request.signature).toBeTruthy();
    // A client's requests name its own ACS and entity id; the shared ACS still takes the answer (RelayState).
    expect(request.xml).toContain(`AssertionConsumerServiceURL="${ACS}?client=acme"`);
    expect(request.xml).toContain(`${SP_ENTITY}/acme</saml:Issuer>`);
    const xml = idp.signedResponse({ ...base('sam@acme.test'), inResponseTo: requestId });
    const res = await post(xml, state);
    expect(res.status).toBe(200);
    expect(res.body.jwt).toEqual(expect.any(String));
    expect(res.body.user).toMatchObject({ email: 'sam@acme.test', firstName: 'Sam', lastName: 'Ell' });
    expect(res.body.user.role.type).toBe('VIEWER');

    const replay = await post(xml, state);
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe('INVALID_STATE');

    const logout = await t
      .http()
      .post('/auth/sso/saml/logout')
      .set('X-Client-ID', 'acme')
      .set('Authorization', `Bearer ${res.body.jwt}`)
      .send({ providerId });
    expect(logout.status).toBe(200);
    const logoutUrl = new URL(logout.body.data.logoutUrl);
    expect(logoutUrl.origin + logoutUrl.pathname).toBe('https://idp.test/slo');
    expect(logoutUrl.searchParams.get('SAMLRequest')).toBeTruthy();
    expect(logoutUrl.searchParams.get('Signature')).toBeTruthy();

    // The IdP answers with a signed LogoutResponse (HTTP-Redirect), built here with node-saml as the IdP.
    const logoutRequest = TestSamlIdp.requestOf(logout.body.data.logoutUrl);
    expect(logoutRequest.xml).toContain('<saml:NameID');
    const idpSide = new SAML({
      callbackUrl: 'https://idp.test/acs',
      entryPoint: 'https://idp.test/sso',
      issuer: IDP_ENTITY_ID,
      idpCert: idp.key.certificatePem,
      logoutUrl: `${SP}/auth/sso/saml/slo`,
      privateKey: idp.key.privateKeyPem,
      signatureAlgorithm: 'sha256',
    });
    const answer = new URL(
      await idpSide.getLogoutResponseUrlAsync(
        { ID: logoutRequest.id, issuer: SP_ENTITY, nameID: 'sam@acme.test', nameIDFormat: 'email' },
        logoutRequest.relayState!,
        {},
        true,
      ),
    );
    const unsigned = new URL(answer);
    unsigned.searchParams.delete('Signature');
    const refused = await t.http().get(`${unsigned.pathname}${unsigned.search}`);
    expect(refused.status).toBe(401);
    const done = await t.http().get(`${answer.pathname}${answer.search}`);
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ loggedOut: true });
    const again = await t.http().get(`${answer.pathname}${answer.search}`);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('INVALID_STATE');
  });

  it('refuses an unsigned response', async () => {
    const { requestId, state } = await start();
    const o = { ...base('unsigned@acme.test'), inResponseTo: requestId };
    const res = await post(idp.responseXml(o, idp.assertionXml(o)), state);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('SSO_SAML_INVALID');
    expect(res.body.error.message).toMatch(/signature/i);
    expect(res.body.jwt).toBeUndefined();
  });

  it('refuses an assertion signed by another key', async () => {
    const { requestId, state } = await start();
    const o = { ...base('forged@acme.test'), inResponseTo: requestId };
    const res = await post(idp.signedResponse(o, idp.otherKey.privateKeyPem), state);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('SSO_SAML_INVALID');
    expect(res.body.error.message).toMatch(/signature/i);
  });

  it('refuses signature-wrapping attempts', async () => {
    const { requestId, state } = await start();
    const genuine = idp.sign(
      idp.assertionXml({ ...base('sam@acme.test'), inResponseTo: requestId }),
      'Assertion',
    );
    const evil = idp.assertionXml({ ...base(acme.adminEmail), inResponseTo: requestId });
    const o = { ...base('sam@acme.test'), inResponseTo: requestId };
    const wrapped = idp
      .responseXml(o, evil)
      .replace('<samlp:Status>', `<samlp:Extensions>${genuine}</samlp:Extensions><samlp:Status>`);
    const res = await post(wrapped, state);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/exactly one assertion/);
    expect(res.body.jwt).toBeUndefined();

    const second = await start();
    const inner = idp.sign(
      idp.assertionXml({ ...base('sam@acme.test'), inResponseTo: second.requestId }),
      'Assertion',
    );
    const nested = idp.responseXml(
      { ...o, inResponseTo: second.requestId },
      inner.replace(
        '</saml:Assertion>',
        `${idp.assertionXml({ ...base(acme.adminEmail) })}</saml:Assertion>`,
      ),
    );
    const res2 = await post(nested, second.state);
    expect(res2.status).toBe(401);
    expect(res2.body.jwt).toBeUndefined();
  });

  it('refuses an expired assertion, a wrong audience and a mismatched InResponseTo', async () => {
    const expired = await start();
    const late = await post(
      idp.signedResponse({ ...base('late@acme.test'), inResponseTo: expired.requestId, validForMinutes: -5 }),
      expired.state,
    );
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('SSO_SAML_INVALID');
    expect(late.body.error.message).toMatch(/expired|no valid subject confirmation/i);

    const aud = await start();
    const wrongAudience = await post(
      idp.signedResponse({
        ...base('aud@acme.test'),
        inResponseTo: aud.requestId,
        audience: 'https://other-sp',
      }),
      aud.state,
    );
    expect(wrongAudience.status).toBe(401);
    expect(wrongAudience.body.error.message).toMatch(/audience/i);

    const irt = await start();
    const mismatch = await post(
      idp.signedResponse({ ...base('irt@acme.test'), inResponseTo: '_other' }),
      irt.state,
    );
    expect(mismatch.status).toBe(401);
    expect(mismatch.body.error.message).toMatch(/InResponseTo/);
    expect(
      await queryClientDb(t, 'acme', `SELECT id FROM users WHERE email LIKE '%late@%' OR email LIKE 'aud@%'`),
    ).toEqual([]);
  });

  it('refuses a DOCTYPE and a replayed IdP-initiated response', async () => {
    const doctype = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "boom">]>${idp.signedResponse(base('dtd@acme.test'))}`;
    const dtd = await t
      .http()
      .post('/auth/sso/saml/acs')
      .set('X-Client-ID', 'acme')
      .type('form')
      .send({ SAMLResponse: encode(doctype) });
    expect(dtd.status).toBe(400);
    expect(dtd.body.error.code).toBe('SSO_SAML_MALFORMED');

    const xml = idp.signedResponse(base('idpinit@acme.test'));
    const first = await t
      .http()
      .post('/sso/callback/saml')
      .set('X-Client-ID', 'acme')
      .type('form')
      .send({ SAMLResponse: encode(xml) });
    expect(first.status).toBe(200);
    expect(first.body.user.email).toBe('idpinit@acme.test');
    const again = await t
      .http()
      .post('/auth/sso/saml/acs')
      .set('X-Client-ID', 'acme')
      .type('form')
      .send({ SAMLResponse: encode(xml) });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('SSO_SAML_REPLAY');
  });

  it('sends an IdP-initiated login only to an allow-listed RelayState', async () => {
    const evil = await t
      .http()
      .post('/auth/sso/saml/acs')
      .set('X-Client-ID', 'acme')
      .type('form')
      .send({
        SAMLResponse: encode(idp.signedResponse(base('relay@acme.test'))),
        RelayState: '//evil.com/x',
      });
    expect(evil.status).toBe(400);
    expect(evil.body.error.code).toBe('SSO_REDIRECT_NOT_ALLOWED');

    const ok = await t
      .http()
      .post('/auth/sso/saml/acs')
      .set('X-Client-ID', 'acme')
      .type('form')
      .send({
        SAMLResponse: encode(idp.signedResponse(base('relay@acme.test'))),
        RelayState: 'https://app.test/home',
      });
    expect(ok.status).toBe(302);
    const location = new URL(ok.headers.location);
    expect(location.origin).toBe('https://app.test');
    const exchanged = await t
      .http()
      .post('/auth/sso/exchange')
      .send({ code: location.searchParams.get('code') });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.user.email).toBe('relay@acme.test');
  });
  it("publishes each client's ACS on the shared path with ?client=, where an IdP-initiated response needs no RelayState", async () => {
    const clientAcs = `${SP}/auth/sso/saml/acs?client=acme`;
    const md = await t.http().get('/auth/sso/saml/metadata/acme');
    expect(md.status).toBe(200);
    const doc = new DOMParser().parseFromString(md.text, 'text/xml');
    const acs = doc.getElementsByTagNameNS(MD, 'AssertionConsumerService');
    expect(acs[0].getAttribute('Location')).toBe(clientAcs);
    const clientEntity = `${SP}/auth/sso/saml/metadata/acme`;
    expect(doc.documentElement?.getAttribute('entityID')).toBe(clientEntity);
    const viaHeader = await t.http().get('/auth/sso/saml/metadata').set('X-Client-ID', 'acme');
    expect(viaHeader.text).toContain(clientAcs);
    expect((await t.http().get('/auth/sso/saml/metadata/nosuch')).status).toBe(404);

    // No client header, no RelayState: ?client= names the client.
    const xml = idp.signedResponse({ ...base('percl@acme.test'), acsUrl: clientAcs });
    const res = await post(xml, undefined, '/auth/sso/saml/acs?client=acme');
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('percl@acme.test');
    // The older per-client path stays an alias, with its own URL as Destination.
    const aliasAcs = `${SP}/auth/sso/saml/acs/acme`;
    const viaAlias = idp.signedResponse({ ...base('alias@acme.test'), acsUrl: aliasAcs });
    expect((await post(viaAlias, undefined, '/auth/sso/saml/acs/acme')).status).toBe(200);
    // The client's own entity id is its audience; another client's is not.
    const own = idp.signedResponse({ ...base('own@acme.test'), acsUrl: clientAcs, audience: clientEntity });
    expect((await post(own, undefined, '/auth/sso/saml/acs?client=acme')).status).toBe(200);
    const foreign = idp.signedResponse({
      ...base('foreign@acme.test'),
      acsUrl: clientAcs,
      audience: `${SP}/auth/sso/saml/metadata/other`,
    });
    const refused = await post(foreign, undefined, '/auth/sso/saml/acs?client=acme');
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/audience/i);
    // The shared ACS without any client (RelayState, host, ?client= or header) looks in the master.
    const shared = await post(idp.signedResponse(base('shared@acme.test')));
    expect(shared.status).toBeGreaterThanOrEqual(400);
    // A state of one client is refused at another client's ACS.
    const { state } = await start();
    const wrong = await post(idp.signedResponse(base('x@acme.test')), state, '/auth/sso/saml/acs/nosuch');
    expect(wrong.status).toBe(404);
  });

  it('accepts one IdP-initiated assertion once across all clients trusting the same IdP', async () => {
    const beta = await provisionClient(t, sink, 'beta');
    await createProvider(t, 'beta', beta.adminToken, samlProvider);
    // The shared entity id and ACS: valid at the ACS of either client.
    const xml = idp.signedResponse(base('twice@acme.test'));
    const atAcme = await post(xml, undefined, '/auth/sso/saml/acs?client=acme');
    expect(atAcme.status).toBe(200);
    expect(atAcme.body.jwt).toEqual(expect.any(String));
    const atBeta = await post(xml, undefined, '/auth/sso/saml/acs?client=beta');
    expect(atBeta.status).toBe(401);
    expect(atBeta.body.error.code).toBe('SSO_SAML_REPLAY');
    expect(atBeta.body.jwt).toBeUndefined();
    expect(await queryClientDb(t, 'beta', `SELECT id FROM users WHERE email = 'twice@acme.test'`)).toEqual(
      [],
    );
    // A fresh assertion of the same IdP still signs in at the second client.
    const fresh = await post(
      idp.signedResponse(base('once@acme.test')),
      undefined,
      '/auth/sso/saml/acs?client=beta',
    );
    expect(fresh.status).toBe(200);
    expect(fresh.body.user.email).toBe('once@acme.test');
  });
});
