import { superAdminToken, TestApp } from '../support/test-app';
import { as, bootIdentityApp, createUser, loginFull, queryMaster, sleep } from './identity-helpers';

describe('identity: API tokens', () => {
  let t: TestApp;
  let root: string;
  let admin: string;
  let adminId: number;

  beforeAll(async () => {
    t = await bootIdentityApp({ env: { API_TOKEN_FLUSH_MS: '200', API_TOKEN_CACHE_MS: '60000' } });
    root = await superAdminToken(t);
    adminId = await createUser(t, root, {
      email: 'tokens.admin@platform.test',
      password: 'Admin-password-1',
      role: 'ADMIN',
    });
    admin = (await loginFull(t, 'tokens.admin@platform.test', 'Admin-password-1')).body.jwt;
  });
  afterAll(async () => {
    await t?.close();
  });

  const createToken = (body: Record<string, unknown>, token = admin) =>
    t.http().post('/api/admin/tokens').set(as(token)).send(body);

  it('creates a read-only token for units, shown once, that is refused on writes and on other resources', async () => {
    const unit = await t.http().post('/api/units').set(as(admin)).send({ name: 'Turbine 7' });
    expect(unit.status).toBe(201);
    const created = await createToken({
      name: 'Reporting',
      description: 'reads units',
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      isFullAccess: false,
      permissions: [{ resourceName: 'units', canRead: true }],
    });
    expect(created.status).toBe(201);
    const value = created.body.data.token as string;
    expect(value).toMatch(/^svc_[A-Za-z0-9_-]{20,}$/);
    expect(created.body.data).toMatchObject({ name: 'Reporting', isFullAccess: false, createdById: adminId });

    const [row] = await queryMaster<{ token_hash: string }>(
      t,
      'SELECT token_hash FROM api_tokens WHERE id = $1',
      [created.body.data.id],
    );
    expect(row.token_hash).not.toContain(value.slice(4));
    const list = await t.http().get('/api/admin/tokens').set(as(admin));
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(value);

    const read = await t.http().get('/api/units').set(as(value));
    expect(read.status).toBe(200);
    expect(read.body.data.map((u: { name: string }) => u.name)).toContain('Turbine 7');
    const write = await t.http().post('/api/units').set(as(value)).send({ name: 'Not allowed' });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('FORBIDDEN');
    const update = await t.http().put(`/api/units/${unit.body.data.id}`).set(as(value)).send({ name: 'x' });
    expect(update.status).toBe(403);
    expect((await t.http().get('/api/admin/users').set(as(value))).status).toBe(403);
    expect((await t.http().get('/sandboxes').set(as(value))).status).toBe(403);
    expect((await t.http().get('/api/admin/tokens').set(as(value))).status).toBe(403);

    await sleep(600);
    const after = await t.http().get('/api/admin/tokens').set(as(admin));
    const listed = after.body.data.find((x: { id: number }) => x.id === created.body.data.id);
    expect(listed.lastUsedAt).not.toBeNull();
    const uses = await queryMaster<{ n: number }>(
      t,
      `SELECT count(*)::int AS n FROM audit_logs
        WHERE entity_type = 'ApiToken' AND entity_id = $1 AND metadata->>'event' = 'API_TOKEN_USED'`,
      [created.body.data.id],
    );
    expect(uses[0].n).toBe(6);
    const creation = await queryMaster<{ changes: Record<string, unknown> }>(
      t,
      `SELECT changes FROM audit_logs WHERE entity_type = 'ApiToken' AND entity_id = $1 AND action = 'CREATE'`,
      [created.body.data.id],
    );
    expect(creation).toHaveLength(1);
    expect(JSON.stringify(creation[0].changes)).not.toContain(value);
  });

  it('acts with the creator’s role when isFullAccess, and stops at once when revoked', async () => {
    const created = await createToken({ name: 'Full', isFullAccess: true });
    expect(created.status).toBe(201);
    const value = created.body.data.token as string;
    expect((await t.http().post('/api/units').set(as(value)).send({ name: 'By token' })).status).toBe(201);
    expect((await t.http().get('/api/admin/users').set(as(value))).status).toBe(200);
    expect((await t.http().get('/api/platform/clients').set(as(value))).status).toBe(403);

    const revoke = await t.http().delete(`/api/admin/tokens/${created.body.data.id}`).set(as(admin));
    expect(revoke.status).toBe(204);
    const refused = await t.http().get('/api/units').set(as(value));
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('INVALID_TOKEN');
    expect((await t.http().delete('/api/admin/tokens/999999').set(as(admin))).status).toBe(404);
  });

  it('keeps a limited token of a SUPER_ADMIN out of platform administration', async () => {
    const limited = await createToken(
      { name: 'Root reader', isFullAccess: false, permissions: [{ resourceName: 'units', canRead: true }] },
      root,
    );
    const full = await createToken({ name: 'Root full', isFullAccess: true }, root);
    expect([limited.status, full.status]).toEqual([201, 201]);
    const clients = (token: string) => t.http().get('/api/platform/clients').set(as(token));
    expect((await t.http().get('/api/units').set(as(limited.body.data.token))).status).toBe(200);
    const refused = await clients(limited.body.data.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await clients(full.body.data.token)).status).toBe(200);
    expect((await clients(root)).status).toBe(200);
  });

  it('answers 401 for an expired or unknown token', async () => {
    const created = await createToken({
      name: 'Short-lived',
      expiresAt: new Date(Date.now() + 1500).toISOString(),
      permissions: [{ resourceName: 'units', canRead: true }],
    });
    expect(created.status).toBe(201);
    expect((await t.http().get('/api/units').set(as(created.body.data.token))).status).toBe(200);
    await sleep(1700);
    const expired = await t.http().get('/api/units').set(as(created.body.data.token));
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('TOKEN_EXPIRED');
    expect((await t.http().get('/api/units').set(as('svc_unknown-token-value'))).status).toBe(401);
  });

  it('validates the creation request and keeps tokens to ADMIN', async () => {
    for (const body of [
      {},
      { name: 'x', permissions: [] },
      { name: 'x', permissions: [{ resourceName: 'nope', canRead: true }] },
      { name: 'x', permissions: [{ resourceName: 'units', canRead: 'yes' }] },
      { name: 'x', isFullAccess: true, expiresAt: 'tomorrow' },
      { name: 'x', isFullAccess: true, expiresAt: '2001-01-01T00:00:00Z' },
      { name: 'x', isFullAccess: true, owner: 1 },
    ]) {
      const res = await createToken(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const noSystem = await createToken({
      name: 'x',
      permissions: [{ resourceName: 'system_configuration', canRead: true }],
    });
    expect(noSystem.status).toBe(403);
    await createUser(t, root, {
      email: 'tokens.manager@platform.test',
      password: 'Manager-password-1',
      role: 'MANAGER',
    });
    const manager = (await loginFull(t, 'tokens.manager@platform.test', 'Manager-password-1')).body.jwt;
    expect((await createToken({ name: 'm', isFullAccess: true }, manager)).status).toBe(403);
    expect((await t.http().get('/api/admin/tokens').set(as(manager))).status).toBe(403);
  });
});
