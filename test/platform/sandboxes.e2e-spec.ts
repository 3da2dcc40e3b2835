import bcrypt from 'bcrypt';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import {
  bootApp,
  login,
  ProvisionedClient,
  provisionClient,
  superAdminToken,
  TestApp,
} from '../support/test-app';

describe('sandboxes', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let acme: ProvisionedClient;
  const as = (token: string, schema?: string) => {
    const headers: Record<string, string> = { 'X-Client-ID': 'acme', Authorization: `Bearer ${token}` };
    if (schema) headers['X-Tenant-ID'] = schema;
    return headers;
  };

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { SMTP_URL: sink.url } });
    acme = await provisionClient(t, sink, 'acme', { maxSandboxes: 2 });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  it('copies production rows into a new sandbox and keeps sandbox writes out of production', async () => {
    const created = await t
      .http()
      .post('/api/units')
      .set(as(acme.adminToken))
      .send({ name: 'Turbine A', capacityMw: 120 });
    expect(created.status).toBe(201);

    const sandbox = await t
      .http()
      .post('/sandboxes')
      .set(as(acme.adminToken))
      .send({ name: 'QA', copyData: true });
    expect(sandbox.status).toBe(201);
    expect(sandbox.body).toMatchObject({ name: 'QA', slug: 'qa', schemaName: 'sandbox_qa', isMain: false });

    const inSandbox = await t.http().get('/api/units').set(as(acme.adminToken, 'sandbox_qa'));
    expect(inSandbox.status).toBe(200);
    expect(inSandbox.headers['x-current-tenant']).toBe('sandbox_qa');
    expect(inSandbox.body.data.map((u: { name: string }) => u.name)).toEqual(['Turbine A']);

    const written = await t
      .http()
      .post('/api/units')
      .set(as(acme.adminToken, 'sandbox_qa'))
      .send({ name: 'Sandbox only' });
    expect(written.status).toBe(201);
    const production = await t.http().get('/api/units').set(as(acme.adminToken));
    expect(production.headers['x-current-tenant']).toBe('public');
    expect(production.body.data.map((u: { name: string }) => u.name)).toEqual(['Turbine A']);
    // Lists format timestamps in SQL; they read exactly like the single-unit answer's.
    const listed = production.body.data[0];
    expect([listed.createdAt, listed.updatedAt]).toEqual([
      created.body.data.createdAt,
      created.body.data.updatedAt,
    ]);
    expect(listed.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(inSandbox.body.data[0].createdAt).toBe(created.body.data.createdAt);
    const sandboxAgain = await t.http().get('/api/units').set(as(acme.adminToken, 'sandbox_qa'));
    expect(sandboxAgain.body.meta.pagination.total).toBe(2);

    const list = await t.http().get('/sandboxes').set(as(acme.adminToken));
    expect(list.body.map((s: { schemaName: string }) => s.schemaName)).toEqual(['public', 'sandbox_qa']);
  });

  it('starts an empty sandbox without copyData, and login answers with the sandbox object', async () => {
    const res = await t.http().post('/sandboxes').set(as(acme.adminToken)).send({ name: 'Training' });
    expect(res.status).toBe(201);
    const units = await t.http().get('/api/units').set(as(acme.adminToken, 'sandbox_training'));
    expect(units.body.meta.pagination.total).toBe(0);
    const loginRes = await t
      .http()
      .post('/auth/local')
      .set({ 'X-Client-ID': 'acme', 'X-Tenant-ID': 'sandbox_training' })
      .send({ identifier: acme.adminEmail, password: acme.adminPassword });
    expect(loginRes.body.sandbox).toMatchObject({
      slug: 'training',
      schemaName: 'sandbox_training',
      isMain: false,
    });
    expect(typeof loginRes.body.sandbox.id).toBe('number');
  });

  it('enforces maxSandboxes', async () => {
    const res = await t.http().post('/sandboxes').set(as(acme.adminToken)).send({ name: 'Third' });
    expect(res.status).toBe(409);
  });

  it('lets only one of parallel creations take the last free sandbox', async () => {
    const root = await superAdminToken(t);
    await t
      .http()
      .put(`/api/platform/clients/${acme.id}`)
      .set('Authorization', `Bearer ${root}`)
      .send({ maxSandboxes: 3 })
      .expect(200);
    const names = ['Race one', 'Race two', 'Race three'];
    const results = await Promise.all(
      names.map((name) => t.http().post('/sandboxes').set(as(acme.adminToken)).send({ name })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const listed = await t.http().get('/sandboxes').set(as(acme.adminToken));
    expect(listed.body).toHaveLength(4);
  });

  it('refuses unknown or malformed sandbox names before any SQL', async () => {
    for (const schema of ['sandbox_nope', 'public; DROP TABLE units', 'pg_catalog', 'sandbox_QA']) {
      const res = await t.http().get('/api/units').set(as(acme.adminToken, schema));
      expect(res.status).toBe(404);
      expect(res.headers['x-current-client']).toBe('acme');
    }
  });

  it('lets a non-admin into a sandbox only when granted', async () => {
    const db = clientDatabase(t.masterDatabase, 'acme');
    const [role] = await sql<{ id: number }>(db, `SELECT id FROM roles WHERE type = 'OPERATOR'`);
    const hash = await bcrypt.hash('Operator-pass1', 4);
    const [user] = await sql<{ id: number }>(
      db,
      `INSERT INTO users (email, password_hash, role_id, company_id) VALUES ('op@acme.test', $1, $2, 1) RETURNING id`,
      [hash, role.id],
    );
    const token = await login(t, 'op@acme.test', 'Operator-pass1', 'acme');
    const denied = await t.http().get('/api/units').set(as(token, 'sandbox_qa'));
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    const loginInto = () =>
      t
        .http()
        .post('/auth/local')
        .set({ 'X-Client-ID': 'acme', 'X-Tenant-ID': 'sandbox_qa' })
        .send({ identifier: 'op@acme.test', password: 'Operator-pass1' });
    const refusedLogin = await loginInto();
    expect(refusedLogin.status).toBe(403);
    expect(refusedLogin.body.jwt).toBeUndefined();
    await sql(
      db,
      `INSERT INTO user_sandboxes (user_id, sandbox_id) SELECT $1, id FROM sandboxes WHERE slug = 'qa'`,
      [user.id],
    );
    const allowed = await t.http().get('/api/units').set(as(token, 'sandbox_qa'));
    expect(allowed.status).toBe(200);
    expect((await loginInto()).body.sandbox).toMatchObject({ slug: 'qa', isMain: false });
    const visible = await t.http().get('/sandboxes').set(as(token));
    expect(visible.body.map((s: { slug: string }) => s.slug)).toEqual(['main', 'qa']);
  });
});
