import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { createApp } from '../../src/app.factory';
import { ConfigError } from '../../src/config/app-config';
import { TenantDatabase } from '../../src/tenancy/tenant-database';
import { MASTER_CLIENT } from '../../src/tenancy/tenant-context';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import {
  bootApp,
  createMasterDatabase,
  ProvisionedClient,
  provisionClient,
  superAdminToken,
  TestApp,
} from '../support/test-app';
import { databaseUrl, REDIS_URL } from '../support/test-env';

const BASE = 'sec.test';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me-0123456789abcdef';
const ZERO_KEY = '0'.repeat(64);
const BCRYPT = `$2b$10$${'N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy'}`;

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('production secrets', () => {
  let masterDatabase: string;
  beforeAll(async () => {
    masterDatabase = await createMasterDatabase();
  });

  // A complete deployment, so that without the checks the app would really start.
  const productionEnv = (secrets: Record<string, string | undefined>) => ({
    NODE_ENV: 'production',
    PATH: process.env.PATH,
    LOG_LEVEL: 'error',
    DATABASE_URL: databaseUrl(masterDatabase),
    REDIS_URL,
    REDIS_PREFIX: masterDatabase,
    MULTITENANCY_DB_PREFIX: `${masterDatabase}_`,
    BOOTSTRAP_ADMIN_PASSWORD: 'Sup3r-secret-pass',
    JWT_SECRET: randomBytes(32).toString('base64'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ...secrets,
  });

  it.each([
    ['the documented development values', { JWT_SECRET: DEV_JWT_SECRET, ENCRYPTION_KEY: ZERO_KEY }],
    ['a missing JWT_SECRET', { JWT_SECRET: undefined }],
    ['a JWT_SECRET of one repeated byte', { JWT_SECRET: 'k'.repeat(48) }],
    ['an all-zero ENCRYPTION_KEY', { ENCRYPTION_KEY: ZERO_KEY }],
    ['an ENCRYPTION_KEY of one repeated byte', { ENCRYPTION_KEY: 'ab'.repeat(32) }],
  ])('refuses to start with %s, naming the setting and never its value', async (_, secrets) => {
    const env = productionEnv(secrets);
    const failure = await createApp(env).then(
      async (app) => {
        await app.close();
        return undefined;
      },
      (err: Error) => err,
    );
    expect(failure).toBeInstanceOf(ConfigError);
    for (const [key, value] of Object.entries(secrets)) {
      expect(failure!.message).toContain(key);
      if (value) expect(failure!.message).not.toContain(value);
    }
  });
});

describe('platform hardening', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let root: string;
  let acme: ProvisionedClient;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({
      env: { SMTP_URL: sink.url, MULTITENANCY_BASE_DOMAIN: BASE, METRICS_TOKEN },
    });
    root = await superAdminToken(t);
    acme = await provisionClient(t, sink, 'secacme', { subdomain: 'secacme' });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  describe('request bodies', () => {
    it('refuses a deeply nested body with 400 before authentication', async () => {
      const res = await t
        .http()
        .post('/api/units')
        .set('Content-Type', 'application/json')
        .send(nested(5000));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(res.body.error.details[0]).toMatchObject({
        field: 'body',
        message: expect.stringMatching(/32/),
      });
    });

    it('accepts nesting up to the bound, and ignores brackets inside strings', async () => {
      const res = await t
        .http()
        .post('/auth/local')
        .set('Content-Type', 'application/json')
        .send(`{"identifier":"${'['.repeat(200)}","password":"x","n":${nested(31)}}`);
      expect(res.body.error?.details?.[0]?.field).not.toBe('body');
    });

    it('bounds body sizes: 256 KB in general, 16 KB on the open /auth routes', async () => {
      const big = await t
        .http()
        .post('/api/units')
        .send({ name: 'x'.repeat(300 * 1024) });
      expect(big.status).toBe(413);
      const auth = await t
        .http()
        .post('/auth/local')
        .send({ identifier: 'x'.repeat(20 * 1024), password: 'p' });
      expect(auth.status).toBe(413);
      const fits = await t
        .http()
        .post('/api/units')
        .set('Authorization', `Bearer ${root}`)
        .send({ name: 'x'.repeat(100 * 1024) });
      expect(fits.status).not.toBe(413);
    });
  });

  describe('strings PostgreSQL cannot store', () => {
    const expectRefused = (
      res: { status: number; body: { error?: { code: string; details: unknown } } },
      field: string,
    ) => {
      expect(res.status).toBe(400);
      expect(res.body.error?.code).toBe('VALIDATION_ERROR');
      expect(res.body.error?.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    };

    it('refuses NUL characters in open and authenticated bodies', async () => {
      expectRefused(
        await t.http().post('/auth/local').send({ identifier: 'a\u0000b', password: 'p' }),
        'identifier',
      );
      expectRefused(await t.http().post('/auth/forgot-password').send({ email: 'a\u0000@x.test' }), 'email');
      expectRefused(
        await t
          .http()
          .post('/auth/local/register')
          .set('X-Client-ID', 'secacme')
          .send({ username: 'n\u0000', email: 'n@x.test', password: 'Passw0rd-long!' }),
        'username',
      );
      expectRefused(
        await t
          .http()
          .post('/api/units')
          .set('X-Client-ID', 'secacme')
          .set('Authorization', `Bearer ${acme.adminToken}`)
          .send({ name: 'Unit\u0000' }),
        'name',
      );
      expectRefused(
        await t
          .http()
          .post('/api/admin/webhooks')
          .set('X-Client-ID', 'secacme')
          .set('Authorization', `Bearer ${acme.adminToken}`)
          .send({ name: 'hook\u0000', url: 'https://example.com/hook', events: ['failure.updated'] }),
        'name',
      );
    });

    it('refuses lone surrogates', async () => {
      const res = await t
        .http()
        .post('/auth/local')
        .set('Content-Type', 'application/json')
        .send('{"identifier":"x\\ud800y","password":"p"}');
      expectRefused(res, 'identifier');
    });

    it('refuses NUL in query parameters and out-of-range page numbers', async () => {
      const get = (path: string) =>
        t.http().get(path).set('X-Client-ID', 'secacme').set('Authorization', `Bearer ${acme.adminToken}`);
      expectRefused(await get('/api/units?search=a%00b'), 'search');
      expectRefused(await get('/api/units?page=1e21'), 'page');
      expect((await get('/api/units?page=2')).status).toBe(200);
    });
  });

  it('sends security headers (and Swagger UI still loads)', async () => {
    const res = await t.http().get('/management/health/liveness');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const error = await t.http().get('/api/units');
    expect(error.headers['x-content-type-options']).toBe('nosniff');
    const docs = await t.http().get('/api/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers['content-security-policy']).toContain("script-src 'self'");
    expect(docs.text).toContain('swagger-ui-init.js');
  });

  describe('anonymous errors', () => {
    it('never reach a tenant audit trail; they are counted instead, and authenticated ones stay', async () => {
      const database = clientDatabase(t.masterDatabase, 'secacme');
      // Rows of these requests only (their request ids): earlier tests' entries are written after
      // their answers and may still be arriving.
      const marker = `anon-${Date.now()}`;
      const count = async () =>
        (
          await sql<{ n: number }>(
            database,
            `SELECT count(*)::int AS n FROM audit_logs WHERE metadata->>'requestId' LIKE $1`,
            [`${marker}-%`],
          )
        )[0].n;
      const before = await count();
      for (let i = 0; i < 20; i++) {
        const res = await t
          .http()
          .get('/api/units')
          .set('X-Client-ID', 'secacme')
          .set('X-Request-ID', `${marker}-${i}`);
        expect(res.status).toBe(401);
      }
      const missing = await t
        .http()
        .get('/api/units/987654')
        .set('X-Client-ID', 'secacme')
        .set('Authorization', `Bearer ${acme.adminToken}`);
      expect(missing.status).toBe(404);
      const deadline = Date.now() + 5000;
      let recorded: unknown[] = [];
      while (!recorded.length && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        recorded = await sql(
          database,
          `SELECT 1 FROM audit_logs WHERE metadata->>'path' = '/api/units/987654'`,
        );
      }
      expect(recorded).toHaveLength(1);
      expect(await count()).toBe(before);

      const metrics = await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
      const counted = /http_anonymous_errors_total\{status="401"\} (\d+)/.exec(metrics.text);
      expect(Number(counted?.[1])).toBeGreaterThanOrEqual(20);
    });
  });

  describe('secrets in the log', () => {
    let lines: string[];
    let spies: jest.SpyInstance[];
    beforeEach(() => {
      lines = [];
      const capture = (...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
        return true;
      };
      spies = [
        jest.spyOn(process.stdout, 'write').mockImplementation(capture),
        jest.spyOn(process.stderr, 'write').mockImplementation(capture),
        ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
          jest.spyOn(console, m).mockImplementation(capture),
        ),
      ];
    });
    afterEach(() => spies.forEach((spy) => spy.mockRestore()));

    it('logs a failing query without its parameters', async () => {
      const master = await t.app.get(TenantDatabase).forClient(MASTER_CLIENT);
      const headers = JSON.stringify({ Authorization: 'Bearer hook-secret-value' });
      await expect(
        master.query('SELECT $1::text, $2::text FROM no_such_table', [BCRYPT, headers]),
      ).rejects.toThrow();
      const output = lines.join('\n');
      expect(output).toContain('no_such_table');
      expect(output).not.toContain(BCRYPT);
      expect(output).not.toContain('hook-secret-value');
    });

    it('redacts secret fields, hashes and tokens in every log line', () => {
      const jwt = root;
      const apiToken = `svc_${randomBytes(24).toString('base64url')}`;
      const logger = new Logger('Redaction');
      logger.error({
        password: 'plain-password-1',
        passwordHash: BCRYPT,
        customHeaders: { 'X-Api-Key': 'header-value-2' },
      });
      logger.error(`login with token=${apiToken} and Authorization: Bearer ${jwt} hash ${BCRYPT}`);
      logger.error('webhook {"secret":"whsec-value-3","name":"ok"}');
      const output = lines.join('\n');
      for (const secret of ['plain-password-1', BCRYPT, 'header-value-2', apiToken, jwt, 'whsec-value-3']) {
        expect(output).not.toContain(secret);
      }
      expect(output).toContain('[REDACTED]');
      expect(output).toMatch(/\\?"name\\?":\\?"ok\\?"/); // as text, or escaped inside a JSON log line
    });
  });

  describe('host routing', () => {
    it('normalises the host: a trailing dot or capitals name the same host', async () => {
      const unknown = await t.http().get('/api/units').set('Host', `nope.${BASE}.`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('CLIENT_NOT_FOUND');
      const known = await t
        .http()
        .get('/api/units')
        .set('Host', `SecAcme.${BASE.toUpperCase()}.`)
        .set('Authorization', `Bearer ${acme.adminToken}`);
      expect(known.status).toBe(200);
      expect(known.headers['x-current-client']).toBe('secacme');
    });

    it('refuses a customDomain that is the base domain, under it, or another client’s host', async () => {
      const create = (identifier: string, customDomain: string) =>
        t
          .http()
          .post('/api/platform/clients')
          .set('Authorization', `Bearer ${root}`)
          .send({ identifier, name: identifier, contactEmail: `it@${identifier}.test`, customDomain });
      expect((await create('domainbase', BASE)).status).toBe(409);
      expect((await create('domainsub', `secacme.${BASE}`)).status).toBe(409);
      expect((await create('domainsub2', `anything.${BASE}`)).status).toBe(409);
      const owner = await create('domainowner', 'maintenance.owner.test');
      expect(owner.status).toBe(201);
      expect((await create('domainthief', 'maintenance.owner.test')).status).toBe(409);
      const update = await t
        .http()
        .put(`/api/platform/clients/${acme.id}`)
        .set('Authorization', `Bearer ${root}`)
        .send({ customDomain: BASE });
      expect(update.status).toBe(409);
      expect(update.body.error.code).toBe('CONFLICT');
    });
  });

  describe('health', () => {
    it('hides client identifiers from anonymous callers', async () => {
      await t
        .http()
        .get('/api/units')
        .set('X-Client-ID', 'secacme')
        .set('Authorization', `Bearer ${acme.adminToken}`);
      const anonymous = await t.http().get('/management/health');
      expect(anonymous.status).toBe(200);
      expect(anonymous.body).toMatchObject({
        status: 'ok',
        details: { database: { status: 'up' }, broker: { status: 'up' } },
        features: { multitenancy: true },
      });
      expect(JSON.stringify(anonymous.body)).not.toContain('secacme');

      const clientAdmin = await t
        .http()
        .get('/management/health')
        .set('X-Client-ID', 'secacme')
        .set('Authorization', `Bearer ${acme.adminToken}`);
      expect(JSON.stringify(clientAdmin.body)).not.toContain('client:');

      for (const credential of [root, METRICS_TOKEN]) {
        const operator = await t
          .http()
          .get('/management/health')
          .set('Authorization', `Bearer ${credential}`);
        expect(operator.body.details['client:secacme']).toEqual({ status: 'up' });
      }
    });
  });
});
