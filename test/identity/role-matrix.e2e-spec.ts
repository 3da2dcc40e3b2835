import { superAdminToken, TestApp } from '../support/test-app';
import { as, bootIdentityApp, createUser, loginFull, roleId, RoleType } from './identity-helpers';

const ROLES: RoleType[] = ['SUPER_ADMIN', 'ADMIN', 'MANAGER', 'OPERATOR', 'VIEWER'];
const WRITERS = new Set<RoleType>(['SUPER_ADMIN', 'ADMIN']);

describe('identity: permission matrix of user administration', () => {
  let t: TestApp;
  const tokens = {} as Record<RoleType, string>;
  let viewerRoleId: number;

  beforeAll(async () => {
    t = await bootIdentityApp();
    tokens.SUPER_ADMIN = await superAdminToken(t);
    for (const role of ROLES.slice(1)) {
      const email = `${role.toLowerCase()}@matrix.test`;
      await createUser(t, tokens.SUPER_ADMIN, { email, password: 'Matrix-password-1', role });
      tokens[role] = (await loginFull(t, email, 'Matrix-password-1')).body.jwt;
    }
    viewerRoleId = await roleId(t, tokens.SUPER_ADMIN, 'VIEWER');
  });
  afterAll(async () => {
    await t?.close();
  });

  let seq = 0;
  const target = () =>
    createUser(t, tokens.SUPER_ADMIN, {
      email: `target${++seq}@matrix.test`,
      password: 'Target-password-1',
      role: 'VIEWER',
    });

  type Call = (token: string) => Promise<{ status: number }>;
  const endpoints: [string, 'read' | 'write', () => Promise<Call>, number][] = [
    ['GET /api/admin/users', 'read', async () => (tk) => t.http().get('/api/admin/users').set(as(tk)), 200],
    [
      'GET /api/admin/users/:id',
      'read',
      async () => {
        const id = await target();
        return (tk) => t.http().get(`/api/admin/users/${id}`).set(as(tk));
      },
      200,
    ],
    [
      'POST /api/admin/users',
      'write',
      async () => (tk) =>
        t
          .http()
          .post('/api/admin/users')
          .set(as(tk))
          .send({ email: `new${++seq}@matrix.test`, roleId: viewerRoleId }),
      201,
    ],
    [
      'PUT /api/admin/users/:id',
      'write',
      async () => {
        const id = await target();
        return (tk) => t.http().put(`/api/admin/users/${id}`).set(as(tk)).send({ firstName: 'Renamed' });
      },
      200,
    ],
    [
      'POST /api/admin/users/:id/block',
      'write',
      async () => {
        const id = await target();
        return (tk) => t.http().post(`/api/admin/users/${id}/block`).set(as(tk));
      },
      200,
    ],
    [
      'POST /api/admin/users/:id/unblock',
      'write',
      async () => {
        const id = await target();
        return (tk) => t.http().post(`/api/admin/users/${id}/unblock`).set(as(tk));
      },
      200,
    ],
    [
      'POST /api/admin/users/:id/unlock',
      'write',
      async () => {
        const id = await target();
        return (tk) => t.http().post(`/api/admin/users/${id}/unlock`).set(as(tk));
      },
      200,
    ],
    [
      'PUT /api/admin/users/:id/role',
      'write',
      async () => {
        const id = await target();
        return (tk) => t.http().put(`/api/admin/users/${id}/role`).set(as(tk)).send({ roleId: viewerRoleId });
      },
      200,
    ],
    [
      'PUT /api/admin/users/:id/sandboxes',
      'write',
      async () => {
        const id = await target();
        return (tk) => t.http().put(`/api/admin/users/${id}/sandboxes`).set(as(tk)).send({ sandboxIds: [] });
      },
      200,
    ],
    [
      'DELETE /api/admin/users/:id',
      'write',
      async () => {
        const id = await target();
        return (tk) => t.http().delete(`/api/admin/users/${id}`).set(as(tk));
      },
      204,
    ],
    [
      'GET /api/admin/companies',
      'read',
      async () => (tk) => t.http().get('/api/admin/companies').set(as(tk)),
      200,
    ],
    [
      'GET /api/admin/companies/:id',
      'read',
      async () => (tk) => t.http().get('/api/admin/companies/1').set(as(tk)),
      200,
    ],
    [
      'POST /api/admin/companies',
      'write',
      async () => (tk) =>
        t
          .http()
          .post('/api/admin/companies')
          .set(as(tk))
          .send({ name: `Co ${++seq}` }),
      201,
    ],
    [
      'PUT /api/admin/companies/:id',
      'write',
      async () => {
        const c = await t
          .http()
          .post('/api/admin/companies')
          .set(as(tokens.SUPER_ADMIN))
          .send({ name: `Co ${++seq}` });
        return (tk) =>
          t
            .http()
            .put(`/api/admin/companies/${c.body.data.id}`)
            .set(as(tk))
            .send({ name: `Renamed ${++seq}` });
      },
      200,
    ],
    [
      'DELETE /api/admin/companies/:id',
      'write',
      async () => {
        const c = await t
          .http()
          .post('/api/admin/companies')
          .set(as(tokens.SUPER_ADMIN))
          .send({ name: `Co ${++seq}` });
        return (tk) => t.http().delete(`/api/admin/companies/${c.body.data.id}`).set(as(tk));
      },
      204,
    ],
    ['GET /api/admin/roles', 'read', async () => (tk) => t.http().get('/api/admin/roles').set(as(tk)), 200],
    [
      'GET /api/admin/roles/:id',
      'read',
      async () => (tk) => t.http().get(`/api/admin/roles/${viewerRoleId}`).set(as(tk)),
      200,
    ],
    [
      'PUT /api/admin/roles/:id',
      'write',
      async () => (tk) =>
        t.http().put(`/api/admin/roles/${viewerRoleId}`).set(as(tk)).send({ description: 'Read-only' }),
      200,
    ],
  ];

  for (const [name, kind, prepare, success] of endpoints) {
    it(`${name}: ${kind === 'read' ? 'every role reads' : 'SUPER_ADMIN and ADMIN write, others get 403'}`, async () => {
      const statuses: Record<string, number> = {};
      const expected: Record<string, number> = {};
      for (const role of ROLES) {
        const call = await prepare();
        statuses[role] = (await call(tokens[role])).status;
        expected[role] = kind === 'read' || WRITERS.has(role) ? success : 403;
      }
      expect(statuses).toEqual(expected);
    });
  }

  it('never lets an ADMIN reach above their role', async () => {
    const superRole = await roleId(t, tokens.SUPER_ADMIN, 'SUPER_ADMIN');
    const id = await target();
    const promote = await t
      .http()
      .put(`/api/admin/users/${id}/role`)
      .set(as(tokens.ADMIN))
      .send({ roleId: superRole });
    expect(promote.status).toBe(403);
    const create = await t
      .http()
      .post('/api/admin/users')
      .set(as(tokens.ADMIN))
      .send({ email: 'sneaky@matrix.test', roleId: superRole });
    expect(create.status).toBe(403);
    const me = await t.http().get('/api/admin/users').set(as(tokens.SUPER_ADMIN)).query({ search: 'root@' });
    const rootId = me.body.data[0].id;
    expect((await t.http().post(`/api/admin/users/${rootId}/block`).set(as(tokens.ADMIN))).status).toBe(403);
    const editSuper = await t
      .http()
      .put(`/api/admin/roles/${superRole}`)
      .set(as(tokens.ADMIN))
      .send({ description: 'x' });
    expect(editSuper.status).toBe(403);
    const grant = await t
      .http()
      .put(`/api/admin/roles/${viewerRoleId}`)
      .set(as(tokens.ADMIN))
      .send({ permissions: ['system_configuration:read'] });
    expect(grant.status).toBe(403);
    const bad = await t
      .http()
      .put(`/api/admin/roles/${viewerRoleId}`)
      .set(as(tokens.ADMIN))
      .send({ permissions: ['units:fly'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('applies a role’s new permissions at once, in either notation', async () => {
    expect((await t.http().get('/api/units').set(as(tokens.VIEWER))).status).toBe(200);
    const role = await t.http().get(`/api/admin/roles/${viewerRoleId}`).set(as(tokens.ADMIN));
    const without = role.body.data.permissions.filter((p: string) => p !== 'units:read');
    const cut = await t
      .http()
      .put(`/api/admin/roles/${viewerRoleId}`)
      .set(as(tokens.ADMIN))
      .send({ permissions: without });
    expect(cut.status).toBe(200);
    expect((await t.http().get('/api/units').set(as(tokens.VIEWER))).status).toBe(403);
    const back = await t
      .http()
      .put(`/api/admin/roles/${viewerRoleId}`)
      .set(as(tokens.ADMIN))
      .send({ permissions: [...without, 'units.read'] });
    expect(back.status).toBe(200);
    expect(back.body.data.permissions).toContain('units:read');
    expect((await t.http().get('/api/units').set(as(tokens.VIEWER))).status).toBe(200);
  });

  it('keeps webhooks, identity providers and API tokens to ADMIN even when a lower role holds the permission', async () => {
    const role = await t.http().get(`/api/admin/roles/${viewerRoleId}`).set(as(tokens.ADMIN));
    const before: string[] = role.body.data.permissions;
    const granted = ['webhooks:read', 'identity_providers:read', 'api_tokens:read'];
    const grant = await t
      .http()
      .put(`/api/admin/roles/${viewerRoleId}`)
      .set(as(tokens.SUPER_ADMIN))
      .send({ permissions: [...before, ...granted] });
    expect(grant.status).toBe(200);
    for (const path of [
      '/api/admin/webhooks/event-types',
      '/api/admin/identity-providers',
      '/api/admin/tokens',
    ]) {
      expect([path, (await t.http().get(path).set(as(tokens.VIEWER))).status]).toEqual([path, 403]);
      expect([path, (await t.http().get(path).set(as(tokens.ADMIN))).status]).toEqual([path, 200]);
    }
    await t
      .http()
      .put(`/api/admin/roles/${viewerRoleId}`)
      .set(as(tokens.SUPER_ADMIN))
      .send({ permissions: before })
      .expect(200);
  });

  it('answers a malformed path id with 400 VALIDATION_ERROR naming the parameter', async () => {
    for (const path of ['/api/units/abc', '/api/admin/users/0', '/api/admin/webhooks/1.5']) {
      const res = await t.http().get(path).set(as(tokens.ADMIN));
      expect([path, res.status, res.body.error.code]).toEqual([path, 400, 'VALIDATION_ERROR']);
      expect(res.body.error.details).toEqual([{ field: 'id', message: 'id must be a positive integer' }]);
    }
  });

  it('scopes reads below ADMIN to the own company', async () => {
    const company = await t
      .http()
      .post('/api/admin/companies')
      .set(as(tokens.ADMIN))
      .send({ name: 'Elsewhere' });
    const companyId = company.body.data.id as number;
    await createUser(t, tokens.ADMIN, {
      email: 'far.manager@matrix.test',
      password: 'Far-password-1',
      role: 'MANAGER',
      companyId,
    });
    const far = (await loginFull(t, 'far.manager@matrix.test', 'Far-password-1')).body.jwt;
    const seen = await t.http().get('/api/admin/users').set(as(far));
    expect(seen.status).toBe(200);
    expect(seen.body.data.map((u: { email: string }) => u.email)).toEqual(['far.manager@matrix.test']);
    const near = await target();
    expect((await t.http().get(`/api/admin/users/${near}`).set(as(far))).status).toBe(404);
    const all = await t.http().get('/api/admin/users').set(as(tokens.ADMIN)).query({ pageSize: 100 });
    expect(all.body.data.map((u: { email: string }) => u.email)).toContain('far.manager@matrix.test');
    expect((await t.http().delete(`/api/admin/companies/${companyId}`).set(as(tokens.ADMIN))).status).toBe(
      409,
    );
  });

  it('grants sandboxes by id and refuses unknown ones', async () => {
    const sandbox = await t.http().post('/sandboxes').set(as(tokens.ADMIN)).send({ name: 'Matrix training' });
    expect(sandbox.status).toBe(201);
    const id = await target();
    const token = (await loginFull(t, `target${seq}@matrix.test`, 'Target-password-1')).body.jwt;
    const schema = sandbox.body.schemaName ?? sandbox.body.data?.schemaName;
    expect((await t.http().get('/sandboxes').set(as(token)).set('X-Tenant-ID', schema)).status).toBe(403);
    const sandboxId = Number(sandbox.body.id ?? sandbox.body.data?.id);
    const grant = await t
      .http()
      .put(`/api/admin/users/${id}/sandboxes`)
      .set(as(tokens.ADMIN))
      .send({ sandboxIds: [sandboxId] });
    expect(grant.status).toBe(200);
    expect(grant.body.data).toEqual({ userId: id, sandboxIds: [sandboxId] });
    expect((await t.http().get('/sandboxes').set(as(token)).set('X-Tenant-ID', schema)).status).toBe(200);
    const unknown = await t
      .http()
      .put(`/api/admin/users/${id}/sandboxes`)
      .set(as(tokens.ADMIN))
      .send({ sandboxIds: [99999] });
    expect(unknown.status).toBe(400);
    const notInts = await t
      .http()
      .put(`/api/admin/users/${id}/sandboxes`)
      .set(as(tokens.ADMIN))
      .send({ sandboxIds: ['1'] });
    expect(notInts.status).toBe(400);
  });
});
