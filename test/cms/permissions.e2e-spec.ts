import { DEFAULT_PERMISSIONS } from '../../src/access/permissions';
import { createUser, loginFull, roleId } from '../identity/identity-helpers';
import { cmsFixture, CmsFixture, fieldsOf, Method } from './cms-helpers';

type Caller = (method: Method, path: string) => ReturnType<CmsFixture['admin']>;

/**
 * Per-type permissions of custom tables: `cms.<collection>:<action>` beside the `cms:<action>`
 * wildcard, for roles (through the roles API) and for API tokens (`resourceName` = `cms.<collection>`).
 */
describe('custom tables: per-type permissions', () => {
  let f: CmsFixture;
  let seq = 0;

  beforeAll(async () => {
    f = await cmsFixture('perms');
    for (const collectionName of ['plants', 'tags']) {
      await f
        .admin('post', '/api/cms/content-types')
        .send({
          collectionName,
          options: { draftAndPublish: true, companyScoped: false },
          attributes: { name: { type: 'string' } },
        })
        .expect(201);
    }
  });
  afterAll(async () => {
    await f?.close();
  });

  const bearer =
    (token: string): Caller =>
    (method, path) =>
      f.t
        .http()
        [method](path)
        .set({ 'X-Client-ID': 'perms', Authorization: `Bearer ${token}` });

  /** A user of `role` (its permissions first replaced when given), signed in. */
  async function userOf(role: 'MANAGER' | 'OPERATOR' | 'VIEWER', permissions?: string[]): Promise<Caller> {
    if (permissions) {
      const id = await roleId(f.t, f.acme.adminToken, role, 'perms');
      await f.admin('put', `/api/admin/roles/${id}`).send({ permissions }).expect(200);
    }
    const user = { email: `u${++seq}@perms.test`, password: 'Member-pass-1', role };
    await createUser(f.t, f.acme.adminToken, user, 'perms');
    return bearer((await loginFull(f.t, user.email, user.password, 'perms')).body.jwt);
  }

  /** An API token made by `maker` with the given resource permissions. */
  async function tokenOf(maker: Caller, permissions: Record<string, unknown>[]): Promise<Caller> {
    const res = await maker('post', '/api/admin/tokens')
      .send({ name: `token ${++seq}`, permissions })
      .expect(201);
    return bearer(res.body.data.token);
  }

  /** Runs every record action against `collection` and answers the statuses by action. */
  async function statuses(as: Caller, collection: string) {
    const seed = (await f.admin('post', `/api/cms/${collection}`).send({ name: 'seed' }).expect(201)).body
      .data;
    const created = await as('post', `/api/cms/${collection}`).send({ name: 'new' });
    return {
      list: (await as('get', `/api/cms/${collection}`)).status,
      get: (await as('get', `/api/cms/${collection}/${seed.id}`)).status,
      search: (await as('post', `/api/cms/${collection}/search`).send({})).status,
      count: (await as('get', `/api/cms/${collection}/count`)).status,
      create: created.status,
      update: (await as('put', `/api/cms/${collection}/${seed.id}`).send({ name: 'changed' })).status,
      publish: (await as('post', `/api/cms/${collection}/${seed.id}/publish`)).status,
      unpublish: (await as('post', `/api/cms/${collection}/${seed.id}/unpublish`)).status,
      delete: (await as('delete', `/api/cms/${collection}/${seed.id}`)).status,
      bulkDelete: (await as('post', `/api/cms/${collection}/bulk-delete`).send({ ids: [seed.id] })).status,
    };
  }

  const ALL_ALLOWED = {
    list: 200,
    get: 200,
    search: 200,
    count: 200,
    create: 201,
    update: 200,
    publish: 200,
    unpublish: 200,
    delete: 204,
    // The record is gone by then: nothing left to delete, but the route let the caller in.
    bulkDelete: 200,
  };
  const ALL_REFUSED = {
    list: 403,
    get: 403,
    search: 403,
    count: 403,
    create: 403,
    update: 403,
    publish: 403,
    unpublish: 403,
    delete: 403,
    bulkDelete: 403,
  };

  it('the default roles keep their rights on every type through the cms:<action> wildcard', async () => {
    const roles = (await f.admin('get', '/api/admin/roles').expect(200)).body.data as {
      type: keyof typeof DEFAULT_PERMISSIONS;
      permissions: string[];
    }[];
    for (const role of roles) expect(role.permissions).toEqual([...DEFAULT_PERMISSIONS[role.type]].sort());
    expect(roles.every((r) => !r.permissions.some((p) => p.startsWith('cms.')))).toBe(true);

    const viewer = await userOf('VIEWER');
    const read = { list: 200, get: 200, search: 200, count: 200 };
    const writes = { create: 403, update: 403, publish: 403, unpublish: 403, delete: 403, bulkDelete: 403 };
    for (const collection of ['plants', 'tags']) {
      expect(await statuses(viewer, collection)).toEqual({ ...read, ...writes });
    }
    const operator = await userOf('OPERATOR');
    expect(await statuses(operator, 'tags')).toEqual({
      ...read,
      create: 201,
      update: 200,
      publish: 403,
      unpublish: 403,
      delete: 403,
      bulkDelete: 403,
    });
    expect(await statuses(f.admin, 'plants')).toEqual(ALL_ALLOWED);
  });

  it('a role granted cms.plants:<action> reaches plants and not tags; read alone reads', async () => {
    const manager = await userOf('MANAGER', [
      'content_types:read',
      'cms.plants:read',
      'cms.plants:create',
      'cms.plants.update', // the dot notation is stored in the canonical colon form
      'cms.plants:delete',
      'cms.plants:publish',
    ]);
    const role = await f
      .admin('get', `/api/admin/roles/${await roleId(f.t, f.acme.adminToken, 'MANAGER', 'perms')}`)
      .expect(200);
    expect(role.body.data.permissions).toEqual([
      'cms.plants:create',
      'cms.plants:delete',
      'cms.plants:publish',
      'cms.plants:read',
      'cms.plants:update',
      'content_types:read',
    ]);
    expect(await statuses(manager, 'plants')).toEqual(ALL_ALLOWED);
    expect(await statuses(manager, 'tags')).toEqual(ALL_REFUSED);

    const reader = await userOf('OPERATOR', ['content_types:read', 'cms.plants:read']);
    expect(await statuses(reader, 'plants')).toEqual({
      ...ALL_REFUSED,
      list: 200,
      get: 200,
      search: 200,
      count: 200,
    });
    expect(await statuses(reader, 'tags')).toEqual(ALL_REFUSED);

    // The definitions show only what the caller may read: list, count, one type, its OpenAPI fragment.
    const names = (res: { body: { data: { collectionName: string }[] } }) =>
      res.body.data.map((d) => d.collectionName);
    expect(names(await reader('get', '/api/cms/content-types').expect(200))).toEqual(['plants']);
    expect((await reader('get', '/api/cms/content-types/count').expect(200)).body.data.count).toBe(1);
    await reader('get', '/api/cms/content-types/plants').expect(200);
    await reader('get', '/api/cms/content-types/tags').expect(403);
    // Existing or not, a type the caller may not read answers the same 403.
    await reader('get', '/api/cms/content-types/nothing_here').expect(403);
    const fragment = await reader('get', '/api/cms/content-types/plants/openapi').expect(200);
    expect(Object.keys(fragment.body.data.paths)).toContain('/api/cms/plants');
    await reader('get', '/api/cms/content-types/tags/openapi').expect(403);
    await reader('get', '/api/cms/nothing_here').expect(403);
    expect(names(await f.admin('get', '/api/cms/content-types').expect(200)).sort()).toEqual([
      'plants',
      'tags',
    ]);
  });

  it('an API token limited to cms.<collection> acts on that type only, per action', async () => {
    const reader = await tokenOf(f.admin, [{ resourceName: 'cms.plants', canRead: true }]);
    expect(await statuses(reader, 'plants')).toEqual({
      ...ALL_REFUSED,
      list: 200,
      get: 200,
      search: 200,
      count: 200,
    });
    expect(await statuses(reader, 'tags')).toEqual(ALL_REFUSED);

    const writer = await tokenOf(f.admin, [
      { resourceName: 'cms.plants', canCreate: true, canUpdate: true, canDelete: true, canPublish: true },
    ]);
    expect(await statuses(writer, 'plants')).toEqual({
      ...ALL_ALLOWED,
      list: 403,
      get: 403,
      search: 403,
      count: 403,
    });
    expect(await statuses(writer, 'tags')).toEqual(ALL_REFUSED);

    const listed = (await f.admin('get', '/api/admin/tokens').expect(200)).body.data;
    expect(listed.at(-1).permissions).toEqual([
      {
        resourceName: 'cms.plants',
        canCreate: true,
        canRead: false,
        canUpdate: true,
        canDelete: true,
        canPublish: true,
      },
    ]);

    // The wildcard resource still grants every type.
    const wildcard = await tokenOf(f.admin, [{ resourceName: 'cms', canRead: true }]);
    for (const collection of ['plants', 'tags']) {
      await wildcard('get', `/api/cms/${collection}`).expect(200);
      await wildcard('post', `/api/cms/${collection}`).send({ name: 'x' }).expect(403);
    }
  });

  it('permission names are checked: a collection name and a known action, or 400', async () => {
    const id = await roleId(f.t, f.acme.adminToken, 'OPERATOR', 'perms');
    const before = (await f.admin('get', `/api/admin/roles/${id}`).expect(200)).body.data.permissions;
    const bad = [
      'cms.plants:destroy',
      'cms.plants:*',
      'cms.Plants:read',
      'cms.:read',
      'cms.1plants:read',
      `cms.${'a'.repeat(41)}:read`,
      'cms.plants.tags:read',
      'units.plants:read',
      "cms.plants'; DROP TABLE roles; --:read",
      'cms.plants:read OR 1=1',
      'cms.plants;read',
      'cms.pl%61nts:read',
    ];
    const res = await f
      .admin('put', `/api/admin/roles/${id}`)
      .send({ permissions: ['cms.plants:read', ...bad] })
      .expect(400);
    expect(fieldsOf(res)).toEqual(bad.map((_, i) => `permissions.${i + 1}`));
    expect((await f.admin('get', `/api/admin/roles/${id}`).expect(200)).body.data.permissions).toEqual(
      before,
    );

    for (const resourceName of [
      'cms.',
      'cms.Plants',
      'cms.plants:read',
      'cms.plants"; --',
      'cmsx.plants',
      'cms',
    ]) {
      const status = (
        await f
          .admin('post', '/api/admin/tokens')
          .send({ name: 'bad', permissions: [{ resourceName, canRead: true }] })
      ).status;
      expect(`${resourceName}: ${status}`).toBe(`${resourceName}: ${resourceName === 'cms' ? 201 : 400}`);
    }
    // A path that is no collection name is 400 before any permission or SQL.
    await f.admin('get', '/api/cms/plants;drop').expect(400);
    await f.admin('get', `/api/cms/${encodeURIComponent('plants" --')}`).expect(400);
  });

  it('a query through a relation needs read on the related type, whatever matches', async () => {
    const type = (body: Record<string, unknown>) =>
      f.admin('post', '/api/cms/content-types').send(body).expect(201);
    await type({
      collectionName: 'sec',
      attributes: {
        code: { type: 'string' },
        amount: { type: 'integer' },
        note: { type: 'string', private: true },
      },
    });
    await type({
      collectionName: 'lnk',
      attributes: {
        label: { type: 'string' },
        ref: { type: 'relation', relation: 'manyToOne', target: 'sec' },
      },
    });
    const hidden = (
      await f.admin('post', '/api/cms/sec').send({ code: 'C2-HIDDEN-7', amount: 500, note: 'n' }).expect(201)
    ).body.data;
    const link = (await f.admin('post', '/api/cms/lnk').send({ label: 'L', ref: hidden.id }).expect(201)).body
      .data;
    const prefix = (p: string) => ({ ref: { code: { $startsWith: p } } });
    const atLeast = (n: number) => ({
      aggregate: { count: ['*'] },
      filter: { ref: { amount: { $gte: n } } },
    });
    const probes = (as: Caller) => [
      as('post', '/api/cms/lnk/search').send(prefix('C2-HIDDEN')),
      as('post', '/api/cms/lnk/search').send(prefix('ZZ-NONE')),
      as('post', '/api/cms/lnk/search').send({ $or: [{ label: 'x' }, { $not: prefix('C2') }] }),
      as('post', '/api/cms/lnk/aggregate').send(atLeast(500)),
      as('post', '/api/cms/lnk/aggregate').send(atLeast(501)),
      // A private field of the target is not even looked at without the permission.
      as('post', '/api/cms/lnk/search').send({ ref: { note: 'n' } }),
    ];

    const lnkOnly = await tokenOf(f.admin, [{ resourceName: 'cms.lnk', canRead: true }]);
    const viewer = await userOf('VIEWER', ['cms.lnk:read']);
    for (const as of [lnkOnly, viewer]) {
      await as('get', '/api/cms/sec').expect(403);
      const answers = await Promise.all(probes(as));
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 403));
      // A matching and a non-matching prefix (or threshold) answer the very same error.
      expect(answers[0].body.error).toEqual(answers[1].body.error);
      expect(answers[3].body.error).toEqual(answers[4].body.error);
      expect(answers[0].body.error.code).toBe('FORBIDDEN');
      expect(answers[0].body.error.message).not.toContain('sec');
      // The relation's own column is the record's own data: its id stays comparable.
      const own = await as('post', '/api/cms/lnk/search').send({ ref: hidden.id }).expect(200);
      expect(own.body.data.map((r: { id: number }) => r.id)).toEqual([link.id]);
    }

    const both = await tokenOf(f.admin, [
      { resourceName: 'cms.lnk', canRead: true },
      { resourceName: 'cms.sec', canRead: true },
    ]);
    const wildcard = await tokenOf(f.admin, [{ resourceName: 'cms', canRead: true }]);
    const fullAccess = bearer(
      (await f.admin('post', '/api/admin/tokens').send({ name: 'full', isFullAccess: true }).expect(201)).body
        .data.token,
    );
    const viewerOfBoth = await userOf('VIEWER', ['cms.lnk:read', 'cms.sec:read']);
    for (const as of [both, wildcard, fullAccess, viewerOfBoth, f.admin]) {
      const found = (body: object) => as('post', '/api/cms/lnk/search').send(body).expect(200);
      expect((await found(prefix('C2-HIDDEN'))).body.data.map((r: { id: number }) => r.id)).toEqual([
        link.id,
      ]);
      expect((await found(prefix('ZZ-NONE'))).body.data).toEqual([]);
      const count = async (n: number) =>
        (await as('post', '/api/cms/lnk/aggregate').send(atLeast(n)).expect(200)).body.data[0].count['*'];
      expect([await count(500), await count(501)]).toEqual([1, 0]);
      // A private field of the target is unknown, as in a search of the target itself.
      const secret = await as('post', '/api/cms/lnk/search')
        .send({ ref: { note: 'n' } })
        .expect(400);
      expect(fieldsOf(secret)).toEqual(['ref.note']);
      const direct = await as('post', '/api/cms/sec/search').send({ note: 'n' }).expect(400);
      expect(secret.body.error.details[0].message).toBe(direct.body.error.details[0].message);
    }

    // Sorts, fields= and aggregated or grouped fields name the type's own fields only: a path into
    // the relation is the same 400 for every caller, with or without read on the target.
    const paths = (as: Caller) => [
      as('post', '/api/cms/lnk/search?sort=ref.code').send({}),
      as('get', '/api/cms/lnk?fields=label,ref.code'),
      as('post', '/api/cms/lnk/aggregate').send({ aggregate: { count: ['*'] }, groupBy: ['ref.code'] }),
      as('post', '/api/cms/lnk/aggregate').send({ aggregate: { sum: ['ref.amount'] } }),
    ];
    const [refused, allowed] = await Promise.all([lnkOnly, both].map((as) => Promise.all(paths(as))));
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    expect(refused.map((r) => r.body.error)).toEqual(allowed.map((r) => r.body.error));
  });

  // Last: it takes the wildcard from the ADMIN role, which an ADMIN cannot grant back.
  it('a token keeps only what its creator holds: a per-type role narrows it at once', async () => {
    const token = await tokenOf(f.admin, [
      { resourceName: 'cms.tags', canRead: true },
      { resourceName: 'cms.plants', canRead: true },
    ]);
    await token('get', '/api/cms/tags').expect(200);
    await token('get', '/api/cms/plants').expect(200);
    const adminRole = await roleId(f.t, f.acme.adminToken, 'ADMIN', 'perms');
    const narrowed = [...DEFAULT_PERMISSIONS.ADMIN.filter((p) => !p.startsWith('cms:')), 'cms.tags:read'];
    await f.admin('put', `/api/admin/roles/${adminRole}`).send({ permissions: narrowed }).expect(200);
    await token('get', '/api/cms/tags').expect(200);
    await token('get', '/api/cms/plants').expect(403);
    await f.admin('get', '/api/cms/plants').expect(403);
    await f.admin('get', '/api/cms/tags').expect(200);
    // Nobody grants what they do not hold, per type as for the wildcard.
    await f
      .admin('put', `/api/admin/roles/${adminRole}`)
      .send({ permissions: [...narrowed, 'cms.plants:read'] })
      .expect(403);
    await f
      .admin('post', '/api/admin/tokens')
      .send({ name: 'too much', permissions: [{ resourceName: 'cms.plants', canRead: true }] })
      .expect(403);
  });
});
