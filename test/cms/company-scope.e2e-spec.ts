import { Client } from 'pg';
import { ContentTypesClientScope1734600000000 } from '../../migrations/client/1734600000000-ContentTypesClientScope';
import { renderTextPng } from '../documents/fixtures';
import { upload } from '../documents/helpers';
import { createUser, loginFull } from '../identity/identity-helpers';
import { clientDatabase, sql } from '../support/pg';
import { databaseUrl } from '../support/test-env';
import { cmsFixture, CmsFixture, fieldsOf, idsByPages, listOrderSql, Method } from './cms-helpers';

type Caller = (method: Method, path: string) => ReturnType<CmsFixture['admin']>;
type Rec = { id: number; companyId?: number; [key: string]: unknown };

/**
 * Company scope of custom tables (`options.companyScoped`): two companies of one client, their
 * MANAGERs, and an ADMIN who crosses companies.
 */
describe('custom tables: company scope', () => {
  let f: CmsFixture;
  let db: string;
  let first: number;
  let second: number;
  let m1: Caller;
  let m2: Caller;
  let h2: Record<string, string>;

  beforeAll(async () => {
    f = await cmsFixture('coscope');
    db = clientDatabase(f.t.masterDatabase, 'coscope');
    first = (await f.admin('get', '/api/admin/companies').expect(200)).body.data[0].id;
    second = (await f.admin('post', '/api/admin/companies').send({ name: 'Second Co' }).expect(201)).body.data
      .id;
    const member = async (email: string, companyId: number) => {
      const user = { email, password: 'Manager-pass-1', role: 'MANAGER' as const, companyId };
      await createUser(f.t, f.acme.adminToken, user, 'coscope');
      const token = (await loginFull(f.t, email, user.password, 'coscope')).body.jwt;
      const headers = { 'X-Client-ID': 'coscope', Authorization: `Bearer ${token}` };
      return [((method, path) => f.t.http()[method](path).set(headers)) as Caller, headers] as const;
    };
    [m1] = await member('m1@coscope.test', first);
    [m2, h2] = await member('m2@coscope.test', second);
    const type = (body: Record<string, unknown>) =>
      f.admin('post', '/api/cms/content-types').send(body).expect(201);
    await type({
      collectionName: 'sites',
      options: { draftAndPublish: true },
      attributes: { name: { type: 'string' }, photo: { type: 'media' } },
    });
    await type({
      collectionName: 'assets',
      attributes: {
        serial: { type: 'string' },
        site: { type: 'relation', relation: 'manyToOne', target: 'sites' },
        peers: { type: 'relation', relation: 'manyToMany', target: 'sites' },
      },
    });
    await type({
      collectionName: 'shared',
      options: { companyScoped: false },
      attributes: { site: { type: 'relation', relation: 'manyToOne', target: 'sites' } },
    });
  });
  afterAll(async () => {
    await f?.close();
  });

  const create = async (as: Caller, collection: string, body: Record<string, unknown>): Promise<Rec> =>
    (await as('post', `/api/cms/${collection}`).send(body).expect(201)).body.data;
  const ids = (res: { body: { data: Rec[] } }) => res.body.data.map((r) => r.id).sort((a, b) => a - b);

  it('new types are company-scoped unless they say otherwise; records carry their company', async () => {
    const sites = await f.admin('get', '/api/cms/content-types/sites').expect(200);
    expect(sites.body.data.options).toEqual({ draftAndPublish: true, companyScoped: true });
    const shared = await f.admin('get', '/api/cms/content-types/shared').expect(200);
    expect(shared.body.data.options).toEqual({ draftAndPublish: false, companyScoped: false });
    const columns = await sql(
      db,
      `SELECT table_name, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name = 'company_id' AND table_name LIKE 'cms\\_%' ORDER BY 1`,
    );
    expect(columns).toEqual([
      { table_name: 'cms_assets', is_nullable: 'NO' },
      { table_name: 'cms_sites', is_nullable: 'NO' },
    ]);
    const mine = await create(m1, 'sites', { name: 'first site' });
    expect(mine.companyId).toBe(first);
    const fragment = await f.admin('get', '/api/cms/content-types/sites/openapi').expect(200);
    expect(fragment.body.data.components.schemas.Sites.properties.companyId).toBeDefined();
    const open = await create(m1, 'shared', {});
    expect(open).not.toHaveProperty('companyId');
    // companyId is a system field: no body sets it, and no attribute may take its name.
    const sent = await m1('post', '/api/cms/sites').send({ name: 'x', companyId: second }).expect(400);
    expect(fieldsOf(sent)).toEqual(['companyId']);
    const named = await f
      .admin('post', '/api/cms/content-types')
      .send({ collectionName: 'clash', attributes: { companyId: { type: 'integer' } } })
      .expect(400);
    expect(fieldsOf(named)).toEqual(['attributes.companyId']);
  });

  it("members see and change only their company's records; another company's answers 404", async () => {
    const a = await create(m1, 'sites', { name: 'north A' });
    const b = await create(m2, 'sites', { name: 'north B' });
    expect(b.companyId).toBe(second);

    const listed1 = await m1('get', '/api/cms/sites?pageSize=100').expect(200);
    expect(listed1.body.data.every((r: Rec) => r.companyId === first)).toBe(true);
    expect(ids(listed1)).toContain(a.id);
    expect(ids(listed1)).not.toContain(b.id);
    expect(listed1.body.meta.pagination.total).toBe(listed1.body.data.length);
    expect(ids(await m2('get', '/api/cms/sites?pageSize=100').expect(200))).toEqual([b.id]);
    const all = await f.admin('get', '/api/cms/sites?pageSize=100').expect(200);
    expect(ids(all)).toEqual(expect.arrayContaining([a.id, b.id]));

    const count = async (as: Caller) => (await as('get', '/api/cms/sites/count').expect(200)).body.data.count;
    expect(await count(m1)).toBe(listed1.body.data.length);
    expect(await count(m2)).toBe(1);
    expect(await count(f.admin)).toBe(all.body.meta.pagination.total);

    // A search never leaves the caller's company, not even by naming another company.
    expect(ids(await m1('post', '/api/cms/sites/search').send({ name: 'north B' }).expect(200))).toEqual([]);
    expect(
      ids(
        await m1('post', '/api/cms/sites/search')
          .send({ name: { $contains: 'north' } })
          .expect(200),
      ),
    ).toEqual([a.id]);
    expect(ids(await m1('post', '/api/cms/sites/search').send({ companyId: second }).expect(200))).toEqual(
      [],
    );
    expect(
      ids(await f.admin('post', '/api/cms/sites/search').send({ companyId: second }).expect(200)),
    ).toEqual([b.id]);

    await m1('get', `/api/cms/sites/${b.id}`).expect(404);
    await m1('put', `/api/cms/sites/${b.id}`).send({ name: 'taken over' }).expect(404);
    await m1('post', `/api/cms/sites/${b.id}/publish`).expect(404);
    await m1('delete', `/api/cms/sites/${b.id}`).expect(404);
    const bulk = await m1('post', '/api/cms/sites/bulk-delete')
      .send({ ids: [b.id] })
      .expect(200);
    expect(bulk.body.data.count).toBe(0);
    const still = await m2('get', `/api/cms/sites/${b.id}`).expect(200);
    expect(still.body.data).toMatchObject({ name: 'north B', publicationStatus: 'DRAFT' });

    // Their own records, as usual.
    await m1('put', `/api/cms/sites/${a.id}`).send({ name: 'north A2' }).expect(200);
    await m1('post', `/api/cms/sites/${a.id}/publish`).expect(200);

    // ADMIN crosses companies: reads and changes B, which stays in its company.
    const changed = await f.admin('put', `/api/cms/sites/${b.id}`).send({ name: 'north B2' }).expect(200);
    expect(changed.body.data).toMatchObject({ name: 'north B2', companyId: second });
    // An ADMIN's own records go to the ADMIN's company.
    expect((await create(f.admin, 'sites', { name: 'by admin' })).companyId).toBe(first);

    const c = await create(m2, 'sites', { name: 'to delete' });
    const removed = await f
      .admin('post', '/api/cms/sites/bulk-delete')
      .send({ ids: [c.id] })
      .expect(200);
    expect(removed.body.data.count).toBe(1);
    await m2('delete', `/api/cms/sites/${b.id}`).expect(204);
  });

  it("relations and media are checked against the record's company", async () => {
    const a = await create(m1, 'sites', { name: 'rel A' });
    const b = await create(m2, 'sites', { name: 'rel B' });

    const refused = await m1('post', '/api/cms/assets').send({ serial: 'S1', site: b.id }).expect(400);
    expect(fieldsOf(refused)).toEqual(['site']);
    const many = await m1('post', '/api/cms/assets')
      .send({ serial: 'S1', peers: [a.id, b.id] })
      .expect(400);
    expect(fieldsOf(many)).toEqual(['peers']);
    // The message is the one of a record that does not exist: nothing tells that B is there.
    expect(refused.body.error.details[0].message).toBe(
      (await m1('post', '/api/cms/assets').send({ site: 99999999 }).expect(400)).body.error.details[0]
        .message,
    );
    const asset = await create(m1, 'assets', { serial: 'S1', site: a.id, peers: [a.id] });
    await m1('put', `/api/cms/assets/${asset.id}`).send({ site: b.id }).expect(400);

    // An ADMIN writes a record of company 1: its targets must be of company 1 as well.
    await f.admin('post', '/api/cms/assets').send({ site: b.id }).expect(400);
    // An ADMIN changing company 2's record relates it to company 2's records.
    const theirs = await create(m2, 'assets', { serial: 'S2', site: b.id });
    await f.admin('put', `/api/cms/assets/${theirs.id}`).send({ site: a.id }).expect(400);
    await f
      .admin('put', `/api/cms/assets/${theirs.id}`)
      .send({ peers: [b.id] })
      .expect(200);

    // A client-scoped record refers to what its writer may see.
    await m1('post', '/api/cms/shared').send({ site: b.id }).expect(400);
    await create(m1, 'shared', { site: a.id });
    await create(f.admin, 'shared', { site: b.id });

    // Media: the files of the record's company only, and upload links to its records only.
    const png = renderTextPng(['Photo']);
    const fileB = (await upload(f.t, h2, second, [['b.png', png]]).expect(201)).body[0].id;
    await m1('put', `/api/cms/sites/${a.id}`).send({ photo: fileB }).expect(400);
    await m2('put', `/api/cms/sites/${b.id}`).send({ photo: fileB }).expect(200);
    const link = (refId: number) => ({ ref: 'sites', refId: String(refId), field: 'photo' });
    const across = await upload(f.t, h2, second, [['c.png', png]], '/link', link(a.id)).expect(400);
    expect(fieldsOf(across)).toEqual(['refId']);
    const linked = await upload(f.t, h2, second, [['d.png', png]], '/link', link(b.id)).expect(201);
    expect((await m2('get', `/api/cms/sites/${b.id}`).expect(200)).body.data.photo).toBe(linked.body[0].id);
  });

  it("a filter through a relation never matches another company's target, even with read on both", async () => {
    const a = await create(m1, 'sites', { name: 'through A' });
    const b = await create(m2, 'sites', { name: 'through B' });
    // The ADMIN relates a client-scoped record to company 2's site; company 1's member sees the record.
    const mine = await create(m1, 'shared', { site: a.id });
    const theirs = await create(f.admin, 'shared', { site: b.id });
    const search = async (as: Caller, body: Record<string, unknown>) =>
      ids(await as('post', '/api/cms/shared/search?pageSize=100').send(body).expect(200));
    const count = async (as: Caller, filter: Record<string, unknown>) =>
      (
        await as('post', '/api/cms/shared/aggregate')
          .send({ aggregate: { count: ['*'] }, filter })
          .expect(200)
      ).body.data[0].count['*'];
    const through = { site: { name: { $startsWith: 'through' } } };
    expect(await search(m1, through)).toEqual([mine.id]);
    expect(await search(m2, through)).toEqual([theirs.id]);
    expect(await search(f.admin, through)).toEqual([mine.id, theirs.id]);
    expect(await search(m1, { site: { name: 'through B' } })).toEqual([]);
    expect(await search(m1, { site: { id: b.id } })).toEqual([]);
    expect(await count(m1, { site: { name: 'through B' } })).toBe(0);
    expect(await count(f.admin, { site: { name: 'through B' } })).toBe(1);
    // The record itself is the client's: its own relation column still names the site's id.
    expect(await search(m1, { site: b.id })).toEqual([theirs.id]);
  });

  it('pages by number within a company give the rows of the SQL order at every depth', async () => {
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'meters',
        attributes: {
          tag: { type: 'uid', unique: true },
          reading: { type: 'integer' },
          peers: { type: 'relation', relation: 'manyToMany', target: 'sites' },
        },
      })
      .expect(201);
    // The two companies' rows interleaved, tags out of id order, some missing, readings with ties.
    await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        create(n % 3 ? m1 : m2, 'meters', {
          tag: n % 8 === 5 ? null : `m${String((n * 7) % 30).padStart(2, '0')}`,
          reading: n % 6 === 0 ? null : n % 4,
        }),
      ),
    );
    const admin: Caller = (method, path) => f.admin(method, path);
    for (const [who, as, company] of [
      ['m1', m1, first],
      ['m2', m2, second],
      ['admin', admin, null],
    ] as const) {
      for (const sort of ['tag', 'reading', 'id']) {
        for (const order of ['ASC', 'DESC'] as const) {
          const where = company === null ? undefined : `company_id = ${company}`;
          const expected = (
            await sql<{ id: number }>(db, listOrderSql('cms_meters', sort, order, where))
          ).map((r) => r.id);
          expect(expected.length).toBe(company === null ? 30 : company === first ? 20 : 10);
          const listed = await idsByPages(
            (page) => as('get', '/api/cms/meters').query({ sort, order, pageSize: 3, page }),
            3,
          );
          expect([who, sort, order, listed.ids]).toEqual([who, sort, order, expected]);
          expect(new Set(listed.totals)).toEqual(new Set([expected.length]));
        }
      }
    }
  });

  it('a PUT moves a type into company scope: existing records need a company and an ADMIN', async () => {
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'legacy',
        options: { companyScoped: false },
        attributes: { note: { type: 'text' } },
      })
      .expect(201);
    const one = await create(m1, 'legacy', { note: 'by m1' });
    const two = await create(m2, 'legacy', { note: 'by m2' });
    expect(ids(await m1('get', '/api/cms/legacy').expect(200))).toEqual([one.id, two.id]);

    const definition = { attributes: { note: { type: 'text' } }, options: { companyScoped: true } };
    // A PUT without the option keeps the stored scope.
    const kept = await f
      .admin('put', '/api/cms/content-types/legacy')
      .send({ attributes: { note: { type: 'text' } } })
      .expect(200);
    expect(kept.body.data.options.companyScoped).toBe(false);
    await f
      .admin('put', '/api/cms/content-types/legacy?companyId=1')
      .send({
        attributes: { note: { type: 'text' } },
      })
      .expect(400);
    await m1('put', `/api/cms/content-types/legacy?companyId=${first}`).send(definition).expect(403);
    await f.admin('put', '/api/cms/content-types/legacy').send(definition).expect(409);
    const unknown = await f.admin('put', '/api/cms/content-types/legacy?companyId=99999').send(definition);
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown)).toEqual(['companyId']);
    await f.admin('put', '/api/cms/content-types/legacy?companyId=1;drop').send(definition).expect(400);
    // Nothing changed by the refusals.
    expect((await m2('get', '/api/cms/legacy').expect(200)).body.data).toHaveLength(2);

    const moved = await f
      .admin('put', `/api/cms/content-types/legacy?companyId=${second}`)
      .send(definition)
      .expect(200);
    expect(moved.body.data.options.companyScoped).toBe(true);
    expect(ids(await m1('get', '/api/cms/legacy').expect(200))).toEqual([]);
    const seen = await m2('get', '/api/cms/legacy').expect(200);
    expect(seen.body.data.map((r: Rec) => r.companyId)).toEqual([second, second]);
    await m1('get', `/api/cms/legacy/${one.id}`).expect(404);
    expect((await create(m1, 'legacy', { note: 'new' })).companyId).toBe(first);

    // Leaving company scope drops the companies: every reader sees every record again.
    await m1('put', '/api/cms/content-types/legacy')
      .send({ ...definition, options: {} })
      .expect(200);
    expect(
      (await m1('get', '/api/cms/content-types/legacy').expect(200)).body.data.options.companyScoped,
    ).toBe(true);
    await m1('put', '/api/cms/content-types/legacy')
      .send({ ...definition, options: { companyScoped: false } })
      .expect(403);
    await f
      .admin('put', '/api/cms/content-types/legacy')
      .send({ ...definition, options: { companyScoped: false } })
      .expect(200);
    const open = await m1('get', '/api/cms/legacy').expect(200);
    expect(open.body.data).toHaveLength(3);
    expect(open.body.data[0]).not.toHaveProperty('companyId');

    // An empty type changes scope for whoever may change its definition.
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'fresh',
        options: { companyScoped: false },
        attributes: { a: { type: 'string' } },
      })
      .expect(201);
    await m1('put', '/api/cms/content-types/fresh')
      .send({ attributes: { a: { type: 'string' } }, options: { companyScoped: true } })
      .expect(200);
    expect((await create(m2, 'fresh', { a: 'x' })).companyId).toBe(second);
    expect(ids(await m1('get', '/api/cms/fresh').expect(200))).toEqual([]);
  });

  it('types stored before the option keep client scope; the migration writes it down', async () => {
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'older',
        options: { companyScoped: false },
        attributes: { a: { type: 'string' } },
      })
      .expect(201);
    const made = await create(m2, 'older', { a: 'x' });
    // A definition as stored before the option existed.
    await sql(
      db,
      `UPDATE content_type_definitions SET definition = definition #- '{options,companyScoped}' WHERE collection_name = 'older'`,
    );
    await f.admin('post', '/api/cms/migrations/sync').expect(200); // drops the cached definitions
    expect(ids(await m1('get', '/api/cms/older').expect(200))).toEqual([made.id]);

    const pg = new Client({ connectionString: databaseUrl(db) });
    await pg.connect();
    try {
      await new ContentTypesClientScope1734600000000().up({
        query: (text: string) => pg.query(text),
      } as never);
    } finally {
      await pg.end();
    }
    const [stored] = await sql<{ options: Record<string, unknown> }>(
      db,
      `SELECT definition->'options' AS options FROM content_type_definitions WHERE collection_name = 'older'`,
    );
    expect(stored.options).toEqual({ draftAndPublish: false, companyScoped: false });
    const untouched = await sql<{ options: Record<string, unknown> }>(
      db,
      `SELECT definition->'options' AS options FROM content_type_definitions WHERE collection_name = 'sites'`,
    );
    expect(untouched[0].options).toEqual({ draftAndPublish: true, companyScoped: true });
  });
});
