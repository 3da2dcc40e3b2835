import { sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, login, provisionClient, SUPER_ADMIN, superAdminToken, TestApp } from '../support/test-app';

interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route Express serves, as `METHOD /openapi/{style}`. */
function servedRoutes(t: TestApp): string[] {
  const router = t.app.getHttpAdapter().getInstance() as {
    router?: { stack: ExpressLayer[] };
    _router?: { stack: ExpressLayer[] };
  };
  const stack = (router.router ?? router._router)!.stack;
  return stack
    .filter((layer) => layer.route)
    .flatMap((layer) =>
      Object.keys(layer.route!.methods).map(
        (m) => `${m.toUpperCase()} ${layer.route!.path.replace(/:(\w+)/g, '{$1}')}`,
      ),
    );
}

describe('operations surface', () => {
  let sink: SmtpSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { SMTP_URL: sink.url, TENANT_POOL_MAX: '1', TENANT_CONNECTION_CEILING: '2' } });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  it('documents every served route in the OpenAPI document, with Swagger UI beside it', async () => {
    const doc = await t.http().get('/api/docs-json');
    expect(doc.status).toBe(200);
    const documented = new Set(
      Object.entries(doc.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    const undocumented = servedRoutes(t).filter(
      (route) => !documented.has(route) && !route.includes('/api/docs') && route !== 'GET /metrics',
    );
    expect(undocumented).toEqual([]);
    expect(documented.size).toBeGreaterThan(20);
    const ui = await t.http().get('/api/docs/');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });

  it('exposes Prometheus metrics with route templates and open pools', async () => {
    await t
      .http()
      .get('/api/platform/clients/12345')
      .set('Authorization', `Bearer ${await superAdminToken(t)}`);
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toContain('process_cpu_seconds_total');
    expect(res.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/platform\/clients\/:id",status="404"\} 1/,
    );
    expect(res.text).toMatch(/tenant_pools_open \d+/);
  });

  it('never holds more client connections than the ceiling while clients are touched in turn', async () => {
    const clients = [];
    for (const id of ['c-one', 'c-two', 'c-three', 'c-four'])
      clients.push(await provisionClient(t, sink, id));
    for (let round = 0; round < 2; round++) {
      for (const c of clients) {
        const res = await t
          .http()
          .get('/api/units')
          .set({ 'X-Client-ID': c.identifier, Authorization: `Bearer ${c.adminToken}` });
        expect(res.status).toBe(200);
        const [{ count }] = await sql<{ count: string }>(
          t.masterDatabase,
          `SELECT count(*) FROM pg_stat_activity WHERE datname LIKE $1 AND application_name LIKE 'svc-platform:c-%'`,
          [`${t.masterDatabase}_c_%`],
        );
        expect(Number(count)).toBeLessThanOrEqual(2);
      }
    }
    const metrics = await t.http().get('/metrics');
    expect(metrics.text).toMatch(/tenant_pools_open 2\b/);
  });

  it('refuses a missing, malformed or foreign token with the codes of section 7', async () => {
    const none = await t.http().get('/sandboxes');
    expect(none.body.error).toEqual({ status: 401, code: 'UNAUTHORIZED', message: expect.any(String) });
    const garbage = await t.http().get('/sandboxes').set('Authorization', 'Bearer not.a.jwt');
    expect(garbage.body.error.code).toBe('INVALID_TOKEN');
    const token = await login(t, SUPER_ADMIN.email, SUPER_ADMIN.password);
    const [header, payload] = token.split('.');
    const forged = await t.http().get('/sandboxes').set('Authorization', `Bearer ${header}.${payload}.AAAA`);
    expect(forged.body.error.code).toBe('INVALID_TOKEN');
  });
});

describe('single-database mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootApp({ env: { MULTITENANCY_DATABASE_ENABLED: 'false' } });
  });
  afterAll(() => t?.close());

  it('serves everything from the master database and ignores client headers', async () => {
    const token = await login(t, SUPER_ADMIN.email, SUPER_ADMIN.password);
    const res = await t
      .http()
      .post('/api/units')
      .set({ 'X-Client-ID': 'whoever', Authorization: `Bearer ${token}` })
      .send({ name: 'Only unit' });
    expect(res.status).toBe(201);
    expect(res.headers['x-current-client']).toBe('master');
    const rows = await sql<{ name: string }>(t.masterDatabase, 'SELECT name FROM units');
    expect(rows.map((r) => r.name)).toEqual(['Only unit']);
  });
});

describe('health of configured outside stores', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootApp({ env: { OCR_ENABLED: 'true', OCR_SERVICE_URL: 'http://127.0.0.1:9' } });
  });
  afterAll(() => t?.close());

  it('reports an unreachable OCR service as down with 503, and storage as up', async () => {
    const res = await t.http().get('/management/health');
    expect(res.status).toBe(503);
    expect(res.body.status).toBe('error');
    expect(res.body.error.ocr.status).toBe('down');
    expect(res.body.details.storage.status).toBe('up');
    expect(res.body.features.ocr).toBe(true);
  });
});
