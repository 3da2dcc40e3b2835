import { AddressInfo } from 'node:net';
import speakeasy from 'speakeasy';
import { main } from '../../clients/typescript/example';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';

const UNITS = ['GT-1', 'GT-2', 'ST-1', 'Boiler 1', 'Boiler 2'];

/** A code of the step `offset` steps from now. */
const totp = (secret: string, offset = 0) =>
  speakeasy.totp({ secret, encoding: 'base32', time: Math.floor(Date.now() / 1000) + offset * 30 });

describe('the typed TypeScript client (clients/typescript)', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let acme: ProvisionedClient;
  let baseUrl: string;
  const asAdmin = (token = acme.adminToken) => ({
    'X-Client-ID': acme.identifier,
    Authorization: `Bearer ${token}`,
  });

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { SMTP_URL: sink.url, TWO_FACTOR_WINDOW: '2' } });
    acme = await provisionClient(t, sink, 'typedclient');
    for (const name of UNITS) await t.http().post('/api/units').set(asAdmin()).send({ name }).expect(201);
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  it('runs the example program against the server', async () => {
    const result = await main({
      baseUrl,
      clientId: acme.identifier,
      identifier: acme.adminEmail,
      password: acme.adminPassword,
      pageSize: 2,
    });
    expect(result).toMatchObject({
      loggedInAs: acme.adminEmail,
      usedSecondFactor: false,
      unitNames: UNITS,
      pages: 3,
      completedOutage: { status: 'COMPLETED' },
      completingAgain: 'INVALID_TRANSITION',
    });
    const outage = await t.http().get(`/api/outages/${result.completedOutage.id}`).set(asAdmin()).expect(200);
    expect(outage.body.data).toMatchObject({ status: 'COMPLETED', completionNotes: 'Pump replaced' });
    const record = await t
      .http()
      .get(`/api/cms/${result.collectionName}/${result.recordId}`)
      .set(asAdmin())
      .expect(200);
    expect(record.body.data).toMatchObject({ site: 'North yard', passed: true });
  });

  it('narrows the login answer to the two-factor challenge and completes it', async () => {
    const enable = await t.http().post('/auth/2fa/enable').set(asAdmin()).expect(200);
    const secret = enable.body.secret as string;
    await t
      .http()
      .post('/auth/2fa/verify')
      .set(asAdmin())
      .send({ code: totp(secret) })
      .expect(200);
    const result = await main({
      baseUrl,
      clientId: acme.identifier,
      identifier: acme.adminEmail,
      password: acme.adminPassword,
      // The step after the one used to verify: a code is accepted once.
      twoFactorCode: () => totp(secret, 1),
    });
    expect(result).toMatchObject({ loggedInAs: acme.adminEmail, usedSecondFactor: true, pages: 1 });
    await expect(
      main({ baseUrl, clientId: acme.identifier, identifier: acme.adminEmail, password: acme.adminPassword }),
    ).rejects.toThrow('two-factor');
  });
});
