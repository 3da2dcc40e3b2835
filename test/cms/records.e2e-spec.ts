import { Receiver } from '../webhooks/receiver';
import { createUser, loginFull } from '../identity/identity-helpers';
import { clientDatabase, sql } from '../support/pg';
import { cmsFixture, CmsFixture, fieldsOf } from './cms-helpers';

/** Records of custom tables: relations, draft and publish, search, injection, roles, sandboxes. */
describe('custom tables: records', () => {
  let f: CmsFixture;
  let db: string;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    f = await cmsFixture('acme', { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', EVENT_RELAY_POLL_MS: '200' });
    db = clientDatabase(f.t.masterDatabase, 'acme');
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'sites',
        options: { draftAndPublish: true },
        attributes: {
          name: { type: 'string', required: true },
          capacity: { type: 'integer' },
          region: { type: 'enumeration', enum: ['NORTH', 'SOUTH'] },
          notes: { type: 'text', private: true },
          commissioned: { type: 'date' },
        },
      })
      .expect(201);
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'tags',
        attributes: { label: { type: 'string', unique: true } },
      })
      .expect(201);
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'turbines',
        attributes: {
          serial: { type: 'string' },
          site: { type: 'relation', relation: 'manyToOne', target: 'sites' },
          twin: { type: 'relation', relation: 'oneToOne', target: 'turbines' },
          parts: { type: 'relation', relation: 'oneToMany', target: 'tags' },
          labels: { type: 'relation', relation: 'manyToMany', target: 'tags' },
        },
      })
      .expect(201);
  });
  afterAll(async () => {
    await f?.close();
    await receiver?.stop();
  });

  const create = async (collection: string, body: Record<string, unknown>, schema?: string) =>
    (await f.admin('post', `/api/cms/${collection}`, schema).send(body).expect(201)).body.data;

  it('writes and reads each relation kind as ids; missing targets are 400; oneToOne and oneToMany stay exclusive', async () => {
    const north = await create('sites', { name: 'North farm' });
    const t1 = await create('tags', { label: 'a' });
    const t2 = await create('tags', { label: 'b' });
    const t3 = await create('tags', { label: 'c' });
    const first = await create('turbines', {
      serial: 'T-1',
      site: north.id,
      parts: [t1.id],
      labels: [t2.id, t1.id],
    });
    // Many relations answer their ids in id order.
    expect(first).toMatchObject({ site: north.id, twin: null, parts: [t1.id], labels: [t1.id, t2.id] });
    const second = await create('turbines', { serial: 'T-2', twin: first.id, labels: [t2.id] });
    expect(second.twin).toBe(first.id);

    for (const [body, field] of [
      [{ site: 999999 }, 'site'],
      [{ labels: [t1.id, 999999] }, 'labels'],
      [{ site: [north.id] }, 'site'],
      [{ labels: t1.id }, 'labels'],
    ] as const) {
      const res = await f.admin('post', '/api/cms/turbines').send(body);
      expect([res.status, fieldsOf(res)]).toEqual([400, [field]]);
    }
    // oneToOne: the same twin twice; oneToMany: a part already owned.
    await f.admin('post', '/api/cms/turbines').send({ twin: first.id }).expect(409);
    await f
      .admin('post', '/api/cms/turbines')
      .send({ parts: [t1.id] })
      .expect(409);

    const updated = await f
      .admin('put', `/api/cms/turbines/${first.id}`)
      .send({ labels: [t3.id], parts: [] })
      .expect(200);
    expect(updated.body.data).toMatchObject({ labels: [t3.id], parts: [], site: north.id });
    // A deleted target leaves a many-to-one null and drops the link rows.
    await f.admin('delete', `/api/cms/tags/${t3.id}`).expect(204);
    await f.admin('delete', `/api/cms/sites/${north.id}`).expect(204);
    const after = await f.admin('get', `/api/cms/turbines/${first.id}`).expect(200);
    expect(after.body.data).toMatchObject({ labels: [], site: null });
    // A type that is a relation's target cannot be deleted.
    await f.admin('delete', '/api/cms/content-types/tags').expect(409);
  });

  it('draft and publish: DRAFT at first, publish stamps, unpublish clears, status filter, 400 without the option', async () => {
    await f
      .admin('post', '/api/admin/webhooks')
      .send({
        name: 'CMS',
        url: receiver.url('/cms'),
        events: ['cms.sites.created', 'cms.sites.published', 'cms.sites.unpublished'],
      })
      .expect(201);
    const site = await create('sites', { name: 'Drafty', notes: 'private note' });
    expect(site).toMatchObject({ publicationStatus: 'DRAFT', publishedAt: null, publishedById: null });
    expect(site).not.toHaveProperty('notes');
    const published = await f.admin('post', `/api/cms/sites/${site.id}/publish`).expect(200);
    expect(published.body.data).toMatchObject({
      publicationStatus: 'PUBLISHED',
      publishedById: expect.any(Number),
    });
    expect(published.body.data.publishedAt).toMatch(/Z$/);
    await f.admin('post', `/api/cms/sites/${site.id}/publish`).expect(409);

    const onlyPublished = await f.admin('get', '/api/cms/sites').query({ status: 'published' }).expect(200);
    expect(onlyPublished.body.data.map((s: { id: number }) => s.id)).toEqual([site.id]);
    const count = await f.admin('get', '/api/cms/sites/count').query({ status: 'published' }).expect(200);
    expect(count.body).toEqual({ data: { count: 1 } });

    const back = await f.admin('post', `/api/cms/sites/${site.id}/unpublish`).expect(200);
    expect(back.body.data).toMatchObject({ publicationStatus: 'DRAFT', publishedAt: null });
    await f.admin('post', `/api/cms/sites/${site.id}/unpublish`).expect(409);
    const tag = await create('tags', { label: 'no-drafts' });
    await f.admin('post', `/api/cms/tags/${tag.id}/publish`).expect(400);
    await f.admin('post', `/api/cms/sites/999999/publish`).expect(404);

    const audit = await sql(
      db,
      `SELECT action, entity_type FROM audit_logs WHERE entity_type = 'sites' AND entity_id = $1 ORDER BY id`,
      [site.id],
    );
    expect(audit.map((a) => a.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE']);
    const received = await receiver.waitFor('/cms', 3);
    const events = received.map((r) => r.body as { event: string });
    expect(events.map((e) => e.event).sort()).toEqual([
      'cms.sites.created',
      'cms.sites.published',
      'cms.sites.unpublished',
    ]);
  });

  it('lists with paging and sorting; searches with every operator', async () => {
    for (const [name, capacity, region, commissioned] of [
      ['S-Alpha', 10, 'NORTH', '2020-01-01'],
      ['S-Beta', 20, 'SOUTH', '2021-06-15'],
      ['S-Gamma', 30, 'NORTH', null],
      ['S-Delta', null, 'SOUTH', '2023-03-03'],
    ] as const) {
      await create('sites', { name, capacity, region, commissioned });
    }
    const search = async (body: Record<string, unknown>, query: Record<string, unknown> = {}) => {
      const res = await f
        .admin('post', '/api/cms/sites/search')
        .query({ sort: 'name', order: 'ASC', ...query })
        .send(body)
        .expect(200);
      return res.body.data.map((s: { name: string }) => s.name);
    };
    const prefix = { name: { $contains: 's-' } };
    expect(await search(prefix)).toEqual(['S-Alpha', 'S-Beta', 'S-Delta', 'S-Gamma']);
    expect(await search({ ...prefix, region: 'NORTH' })).toEqual(['S-Alpha', 'S-Gamma']);
    expect(await search({ ...prefix, region: { $eq: 'SOUTH' } })).toEqual(['S-Beta', 'S-Delta']);
    expect(await search({ ...prefix, region: { $ne: 'SOUTH' } })).toEqual(['S-Alpha', 'S-Gamma']);
    expect(await search({ ...prefix, capacity: { $gt: 10 } })).toEqual(['S-Beta', 'S-Gamma']);
    expect(await search({ ...prefix, capacity: { $gte: 20, $lt: 30 } })).toEqual(['S-Beta']);
    expect(await search({ ...prefix, capacity: { $lte: 10 } })).toEqual(['S-Alpha']);
    expect(await search({ ...prefix, capacity: { $in: [10, 30] } })).toEqual(['S-Alpha', 'S-Gamma']);
    expect(await search({ ...prefix, capacity: { $null: true } })).toEqual(['S-Delta']);
    expect(await search({ ...prefix, commissioned: { $gte: '2021-01-01' } })).toEqual(['S-Beta', 'S-Delta']);
    expect(await search({ name: { $contains: '%' } })).toEqual([]);

    const page = await f
      .admin('post', '/api/cms/sites/search')
      .query({ sort: 'capacity', order: 'DESC', pageSize: 2, page: 1 })
      .send(prefix)
      .expect(200);
    expect(page.body.data.map((s: { name: string }) => s.name)).toEqual(['S-Gamma', 'S-Beta']);
    expect(page.body.meta.pagination).toEqual({
      page: 1,
      pageSize: 2,
      pageCount: 2,
      total: 4,
      nextCursor: expect.any(String),
    });
    const list = await f
      .admin('get', '/api/cms/sites')
      .query({ sort: 'name', order: 'ASC', pageSize: 100 })
      .expect(200);
    expect(list.body.meta.pagination.pageSize).toBe(100);
    await f.admin('get', '/api/cms/sites').query({ pageSize: 101 }).expect(400);

    for (const [body, field] of [
      [{ nope: 1 }, 'nope'],
      [{ notes: 'private note' }, 'notes'],
      [{ capacity: { $regex: '.*' } }, 'capacity.$regex'],
      [{ capacity: 'ten' }, 'capacity'],
      [{ capacity: { $in: [] } }, 'capacity'],
      [{ commissioned: { $gt: 'not a date' } }, 'commissioned'],
    ] as const) {
      const res = await f.admin('post', '/api/cms/sites/search').send(body);
      expect([res.status, fieldsOf(res)]).toEqual([400, [field]]);
    }
    await f.admin('get', '/api/cms/sites').query({ sort: 'notes' }).expect(400);
  });

  it('refuses injection through collection names, attribute names, sort, filter keys and values with data intact', async () => {
    const before = await sql<{ n: number }>(db, `SELECT count(*)::int AS n FROM cms_sites`);
    const attempts = [
      f.admin('get', `/api/cms/${encodeURIComponent('sites; DROP TABLE cms_sites')}`),
      f.admin('get', `/api/cms/${encodeURIComponent('sites"--')}/1`),
      f
        .admin('post', '/api/cms/content-types')
        .send({ collectionName: 'x; drop table cms_sites', attributes: { a: { type: 'string' } } }),
      f.admin('post', '/api/cms/content-types').send({
        collectionName: 'inj',
        attributes: { 'a" text); DROP TABLE cms_sites; --': { type: 'string' } },
      }),
      f.admin('get', '/api/cms/sites').query({ sort: 'name; DROP TABLE cms_sites' }),
      f.admin('get', '/api/cms/sites').query({ sort: 'id"' }),
      f.admin('post', '/api/cms/sites/search').send({ 'name" = name OR 1=1 --': 'x' }),
      f.admin('post', '/api/cms/sites/search').send({ capacity: '1; DROP TABLE cms_sites' }),
      f.admin('post', '/api/cms/sites').send({ name: 'ok', 'capacity") VALUES (1); --': 1 }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(400);
    // A hostile string value is only a value.
    const hostile = "x'); DROP TABLE cms_sites; --";
    const res = await f.admin('post', '/api/cms/sites/search').send({ name: hostile }).expect(200);
    expect(res.body.data).toEqual([]);
    const saved = await create('sites', { name: hostile });
    expect(saved.name).toBe(hostile);
    const after = await sql(db, `SELECT count(*)::int AS n FROM cms_sites`);
    expect(after[0].n).toBe(before[0].n + 1);
  });

  it('bulk-deletes by ids and counts; 404 for unknown types and records', async () => {
    const a = await create('tags', { label: 'bulk-1' });
    const b = await create('tags', { label: 'bulk-2' });
    const res = await f
      .admin('post', '/api/cms/tags/bulk-delete')
      .send({ ids: [a.id, b.id, 999999] })
      .expect(200);
    expect(res.body).toEqual({ data: { count: 2 } });
    await f.admin('get', `/api/cms/tags/${a.id}`).expect(404);
    await f
      .admin('post', '/api/cms/tags/bulk-delete')
      .send({ ids: ['1'] })
      .expect(400);
    await f
      .admin('post', '/api/cms/tags/bulk-delete')
      .send({ ids: [1], extra: true })
      .expect(400);
    await f.admin('get', '/api/cms/nothing_here').expect(404);
    await f.admin('get', '/api/cms/tags/abc').expect(400);
  });

  it('follows the role defaults: OPERATOR writes records but deletes none and writes no type; VIEWER reads', async () => {
    const operator = { email: 'op@acme.test', password: 'Operator-pass-1', role: 'OPERATOR' as const };
    const viewer = { email: 'view@acme.test', password: 'Viewer-pass-1', role: 'VIEWER' as const };
    await createUser(f.t, f.acme.adminToken, operator, 'acme');
    await createUser(f.t, f.acme.adminToken, viewer, 'acme');
    const as = async (user: { email: string; password: string }) => {
      const token = (await loginFull(f.t, user.email, user.password, 'acme')).body.jwt;
      return (method: 'get' | 'post' | 'delete', path: string) =>
        f.t
          .http()
          [method](path)
          .set({ 'X-Client-ID': 'acme', Authorization: `Bearer ${token}` });
    };
    const op = await as(operator);
    const view = await as(viewer);
    const tag = (await op('post', '/api/cms/tags').send({ label: 'by-operator' }).expect(201)).body.data;
    await op('delete', `/api/cms/tags/${tag.id}`).expect(403);
    await op('post', '/api/cms/content-types')
      .send({ collectionName: 'op_type', attributes: { a: { type: 'string' } } })
      .expect(403);
    await op('get', '/api/cms/content-types').expect(200);
    await view('get', `/api/cms/tags/${tag.id}`).expect(200);
    await view('post', '/api/cms/tags/search').send({}).expect(200);
    await view('post', '/api/cms/tags').send({ label: 'by-viewer' }).expect(403);
  });

  it('a type made in a sandbox is invisible in production; sandboxes copy types (and rows with copyData)', async () => {
    const withData = await f.admin('post', '/sandboxes').send({ name: 'Copy', copyData: true }).expect(201);
    const empty = await f.admin('post', '/sandboxes').send({ name: 'Bare' }).expect(201);
    const [copy, bare] = [withData.body.schemaName, empty.body.schemaName];

    const prodCount = (await f.admin('get', '/api/cms/sites/count').expect(200)).body.data.count;
    expect((await f.admin('get', '/api/cms/sites/count', copy).expect(200)).body.data.count).toBe(prodCount);
    expect((await f.admin('get', '/api/cms/sites/count', bare).expect(200)).body.data.count).toBe(0);
    const types = await f.admin('get', '/api/cms/content-types', bare).expect(200);
    expect(types.body.data.map((d: { collectionName: string }) => d.collectionName).sort()).toEqual([
      'sites',
      'tags',
      'turbines',
    ]);
    // Ids continue after the copied rows; relations work in the sandbox.
    const site = await create('sites', { name: 'Sandbox site' }, copy);
    expect(site.id).toBeGreaterThan(prodCount);
    await create('turbines', { serial: 'SB', site: site.id }, copy);

    await f
      .admin('post', '/api/cms/content-types', bare)
      .send({ collectionName: 'experiments', attributes: { note: { type: 'text' } } })
      .expect(201);
    await create('experiments', { note: 'only here' }, bare);
    await f.admin('get', '/api/cms/experiments').expect(404);
    await f.admin('get', '/api/cms/content-types/experiments').expect(404);
    const prodTypes = await f.admin('get', '/api/cms/content-types').expect(200);
    expect(prodTypes.body.data.map((d: { collectionName: string }) => d.collectionName)).not.toContain(
      'experiments',
    );
    expect(
      await sql(
        db,
        `SELECT 1 FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'cms_experiments'`,
      ),
    ).toHaveLength(0);
    expect((await f.admin('get', '/api/cms/experiments/count', bare).expect(200)).body.data.count).toBe(1);
  });
});
