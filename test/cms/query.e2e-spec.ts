import { clientDatabase, sql } from '../support/pg';
import { cmsFixture, CmsFixture, fieldsOf, idsByPages, listOrderSql } from './cms-helpers';

type Rec = { id: number; code: string; [k: string]: unknown };

/** Custom tables: the filter language, fields=, aggregates and cursor paging. */
describe('custom tables: queries', () => {
  let f: CmsFixture;
  let db: string;

  beforeAll(async () => {
    f = await cmsFixture('qry');
    db = clientDatabase(f.t.masterDatabase, 'qry');
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'regions',
        attributes: { name: { type: 'string' }, secret: { type: 'string', private: true } },
      })
      .expect(201);
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'assets',
        attributes: {
          code: { type: 'uid', unique: true },
          name: { type: 'string' },
          capacity: { type: 'integer' },
          price: { type: 'decimal' },
          level: { type: 'enumeration', enum: ['LOW', 'HIGH'] },
          inspectedAt: { type: 'datetime' },
          installedOn: { type: 'date' },
          active: { type: 'boolean' },
          secret: { type: 'text', private: true },
          region: { type: 'relation', relation: 'manyToOne', target: 'regions' },
        },
      })
      .expect(201);
    const north = await create('regions', { name: 'North', secret: 'n-secret' });
    const south = await create('regions', { name: 'South', secret: 's-secret' });
    const rows: Record<string, unknown>[] = [
      {
        code: 'a1',
        name: 'Alpha_1',
        capacity: 10,
        price: 1.5,
        level: 'LOW',
        inspectedAt: '2026-01-05T10:00:00Z',
        installedOn: '2020-01-10',
        active: true,
        region: north.id,
        secret: 'x',
      },
      {
        code: 'a2',
        name: 'alpha%2',
        capacity: 20,
        price: 2.5,
        level: 'HIGH',
        inspectedAt: '2026-01-20T10:00:00Z',
        installedOn: '2020-02-10',
        active: false,
        region: north.id,
      },
      {
        code: 'b1',
        name: 'Beta',
        capacity: 30,
        price: 3.5,
        level: 'HIGH',
        inspectedAt: '2026-02-03T23:30:00Z',
        installedOn: '2021-03-01',
        active: true,
        region: south.id,
      },
      {
        code: 'b2',
        name: 'Beta two',
        capacity: null,
        price: 4.5,
        level: 'LOW',
        inspectedAt: '2026-03-01T00:00:00Z',
        installedOn: null,
        active: true,
        region: null,
      },
      {
        code: 'c1',
        name: 'Gamma',
        capacity: 50,
        price: null,
        level: null,
        inspectedAt: null,
        installedOn: '2022-06-06',
        active: null,
        region: south.id,
      },
    ];
    for (const row of rows) await create('assets', row);
  });
  afterAll(async () => {
    await f?.close();
  });

  async function create(collection: string, body: Record<string, unknown>): Promise<Rec> {
    return (await f.admin('post', `/api/cms/${collection}`).send(body).expect(201)).body.data;
  }
  const search = (body: unknown, query: Record<string, unknown> = {}) =>
    f
      .admin('post', '/api/cms/assets/search')
      .query({ sort: 'code', order: 'ASC', ...query })
      .send(body as object);
  const codes = async (body: unknown) => {
    const res = await search(body);
    expect(res.status).toBe(200);
    return res.body.data.map((r: Rec) => r.code);
  };

  it('filters with every operator', async () => {
    expect(await codes({ name: { $icontains: 'ALPHA' } })).toEqual(['a1', 'a2']);
    expect(await codes({ name: { $startsWith: 'Beta' } })).toEqual(['b1', 'b2']);
    expect(await codes({ name: { $startsWith: 'beta' } })).toEqual([]);
    expect(await codes({ name: { $endsWith: 'two' } })).toEqual(['b2']);
    // Wildcards in values are literal.
    expect(await codes({ name: { $startsWith: 'Alpha_' } })).toEqual(['a1']);
    expect(await codes({ name: { $startsWith: 'Alpha%' } })).toEqual([]);
    expect(await codes({ name: { $icontains: '%' } })).toEqual(['a2']);
    expect(await codes({ name: { $endsWith: '_1' } })).toEqual(['a1']);
    expect(await codes({ capacity: { $between: [20, 30] } })).toEqual(['a2', 'b1']);
    expect(await codes({ price: { $between: [1.5, 2.5] } })).toEqual(['a1', 'a2']);
    expect(await codes({ installedOn: { $between: ['2020-02-10', '2021-12-31'] } })).toEqual(['a2', 'b1']);
    expect(
      await codes({ inspectedAt: { $between: ['2026-01-01T00:00:00Z', '2026-01-31T23:59:59Z'] } }),
    ).toEqual(['a1', 'a2']);
    // $nin keeps rows without a value, as $ne does.
    expect(await codes({ level: { $nin: ['LOW'] } })).toEqual(['a2', 'b1', 'c1']);
    expect(await codes({ capacity: { $nin: [10, 20, 30] } })).toEqual(['b2', 'c1']);
    expect(await codes({ capacity: { $notNull: true } })).toEqual(['a1', 'a2', 'b1', 'c1']);
    expect(await codes({ capacity: { $null: true } })).toEqual(['b2']);
    expect(await codes({ capacity: { $in: [10, 50] }, active: true })).toEqual(['a1']);
    expect(await codes({ $and: [{ level: 'HIGH' }, { capacity: { $gte: 30 } }] })).toEqual(['b1']);
    expect(await codes({ $or: [{ level: 'HIGH' }, { capacity: { $gte: 50 } }] })).toEqual(['a2', 'b1', 'c1']);
    // $not: the rows the inner filter does not match, rows without a value included.
    expect(await codes({ $not: { active: true } })).toEqual(['a2', 'c1']);
    expect(await codes({ $not: { $or: [{ level: 'LOW' }, { capacity: { $lt: 25 } }] } })).toEqual([
      'b1',
      'c1',
    ]);
    expect(
      await codes({
        $or: [{ $and: [{ level: 'LOW' }, { $not: { code: 'a1' } }] }, { name: { $icontains: 'gam' } }],
        active: { $ne: false },
      }),
    ).toEqual(['b2', 'c1']);
    expect(await codes({ createdById: { $notNull: true }, id: { $gt: 0 } })).toHaveLength(5);

    for (const [body, field] of [
      [{ capacity: { $between: [1] } }, 'capacity'],
      [{ capacity: { $between: [1, 'x'] } }, 'capacity'],
      [{ active: { $between: [true, false] } }, 'active'],
      [{ capacity: { $nin: [] } }, 'capacity'],
      [{ capacity: { $notNull: false } }, 'capacity'],
      [{ capacity: { $startsWith: 'x' } }, 'capacity'],
      [{ name: { $icontains: 5 } }, 'name'],
      [{ capacity: { $like: '%' } }, 'capacity.$like'],
      [{ $or: [] }, '$or'],
      [{ $or: { capacity: 1 } }, '$or'],
      [{ $not: [] }, '$not'],
      [{ $nand: [{ capacity: 1 }] }, '$nand'],
      [{ $or: [{ secret: 'x' }] }, '$or.0.secret'],
      [{ $and: [{ capacity: 1 }, { nope: 1 }] }, '$and.1.nope'],
    ] as const) {
      const res = await search(body);
      expect([res.status, fieldsOf(res)]).toEqual([400, [field]]);
    }
  });

  it('bounds nesting at 5 levels and filters at 50 conditions (400 beyond)', async () => {
    const nest = (levels: number): Record<string, unknown> =>
      levels <= 1 ? { capacity: 10 } : { $or: [nest(levels - 1)] };
    expect(await codes(nest(5))).toEqual(['a1']);
    const deep = await search(nest(6));
    expect(deep.status).toBe(400);
    expect(deep.body.error.details[0].message).toMatch(/5 levels/);
    const conditions = (n: number) => ({ $or: Array.from({ length: n }, (_, i) => ({ capacity: i })) });
    expect(await codes(conditions(50))).toEqual(['a1', 'a2', 'b1']);
    const many = await search(conditions(51));
    expect(many.status).toBe(400);
    expect(many.body.error.details[0].message).toMatch(/50 conditions/);
    // A field with two operators is two conditions.
    const pairs = { $and: Array.from({ length: 26 }, () => ({ capacity: { $gte: 0, $lte: 100 } })) };
    expect((await search(pairs)).status).toBe(400);
  });

  it('filters through a manyToOne target, one level, never on its private fields', async () => {
    expect(await codes({ region: { name: { $eq: 'North' } } })).toEqual(['a1', 'a2']);
    expect(await codes({ region: { name: 'South' }, capacity: { $gt: 40 } })).toEqual(['c1']);
    expect(
      await codes({ $or: [{ region: { name: { $startsWith: 'So' } } }, { region: { $null: true } }] }),
    ).toEqual(['b1', 'b2', 'c1']);
    expect(await codes({ region: { $or: [{ name: 'North' }, { name: 'South' }] }, level: 'HIGH' })).toEqual([
      'a2',
      'b1',
    ]);
    expect(await codes({ $not: { region: { name: 'North' } } })).toEqual(['b1', 'b2', 'c1']);
    // The relation's own id keeps its operators.
    const north = (await f.admin('post', '/api/cms/regions/search').send({ name: 'North' }).expect(200)).body
      .data[0];
    expect(await codes({ region: { $eq: north.id } })).toEqual(['a1', 'a2']);
    expect(await codes({ region: north.id })).toEqual(['a1', 'a2']);

    for (const [body, field] of [
      [{ region: { secret: 'n-secret' } }, 'region.secret'],
      [{ region: { nope: 'x' } }, 'region.nope'],
      [{ region: { name: { $regex: 'x' } } }, 'region.name.$regex'],
      [{ region: { name: 5 } }, 'region.name'],
    ] as const) {
      const res = await search(body);
      expect([res.status, fieldsOf(res)]).toEqual([400, [field]]);
    }
  });

  it('answers only the fields= asked for, id always; unknown and private fields are 400', async () => {
    const res = await f
      .admin('get', '/api/cms/assets')
      .query({ fields: 'code,capacity', sort: 'code', order: 'ASC' })
      .expect(200);
    expect(res.body.data[0]).toEqual({ id: expect.any(Number), code: 'a1', capacity: 10 });
    const found = await search({ code: 'b1' }, { fields: 'name,region,createdAt' }).expect(200);
    expect(Object.keys(found.body.data[0]).sort()).toEqual(['createdAt', 'id', 'name', 'region']);
    for (const fields of ['code,secret', 'code,nope', 'code,', 'code;drop', 'name,"x"']) {
      const bad = await f.admin('get', '/api/cms/assets').query({ fields });
      expect([bad.status, fieldsOf(bad)]).toEqual([400, ['fields']]);
    }
  });

  it('aggregates with count, sum, avg, min, max, countDistinct and groupBy, dates truncated', async () => {
    const agg = (body: unknown) => f.admin('post', '/api/cms/assets/aggregate').send(body as object);
    const all = await agg({
      aggregate: {
        count: ['*', 'capacity'],
        sum: ['capacity', 'price'],
        avg: ['capacity'],
        min: ['installedOn', 'name', 'inspectedAt'],
        max: ['price'],
        countDistinct: ['level'],
      },
    }).expect(200);
    expect(all.body).toEqual({
      data: [
        {
          count: { '*': 5, capacity: 4 },
          sum: { capacity: 110, price: 12 },
          avg: { capacity: 27.5 },
          min: { installedOn: '2020-01-10', name: 'Alpha_1', inspectedAt: '2026-01-05T10:00:00.000Z' },
          max: { price: 4.5 },
          countDistinct: { level: 2 },
        },
      ],
    });
    const byLevel = await agg({ aggregate: { count: ['*'], sum: ['capacity'] }, groupBy: ['level'] }).expect(
      200,
    );
    expect(byLevel.body.data).toEqual([
      { group: { level: 'HIGH' }, count: { '*': 2 }, sum: { capacity: 50 } },
      { group: { level: 'LOW' }, count: { '*': 2 }, sum: { capacity: 10 } },
      { group: { level: null }, count: { '*': 1 }, sum: { capacity: 50 } },
    ]);
    const byMonth = await agg({
      aggregate: { count: ['*'] },
      groupBy: [{ field: 'inspectedAt', interval: 'month' }],
      filter: { inspectedAt: { $notNull: true } },
    }).expect(200);
    expect(byMonth.body.data).toEqual([
      { group: { inspectedAt: '2026-01-01T00:00:00.000Z' }, count: { '*': 2 } },
      { group: { inspectedAt: '2026-02-01T00:00:00.000Z' }, count: { '*': 1 } },
      { group: { inspectedAt: '2026-03-01T00:00:00.000Z' }, count: { '*': 1 } },
    ]);
    const byYearAndRegion = await agg({
      aggregate: { max: ['capacity'] },
      groupBy: [{ field: 'installedOn', interval: 'year' }, 'region'],
      filter: { region: { name: 'North' } },
    }).expect(200);
    const north = byYearAndRegion.body.data[0].group.region;
    expect(byYearAndRegion.body.data).toEqual([
      { group: { installedOn: '2020-01-01', region: north }, max: { capacity: 20 } },
    ]);
    expect(typeof north).toBe('number');
    const week = await agg({
      aggregate: { count: ['*'] },
      groupBy: [{ field: 'inspectedAt', interval: 'week' }],
      filter: { code: 'b1' },
    }).expect(200);
    expect(week.body.data[0].group.inspectedAt).toBe('2026-02-02T00:00:00.000Z');

    for (const [body, field] of [
      [{ aggregate: { sum: ['name'] } }, 'aggregate.sum.name'],
      [{ aggregate: { avg: ['secret'] } }, 'aggregate.avg.secret'],
      [{ aggregate: { median: ['capacity'] } }, 'aggregate.median'],
      [{ aggregate: { sum: ['*'] } }, 'aggregate.sum.*'],
      [{ aggregate: {} }, 'aggregate'],
      [{ aggregate: { count: ['*'] }, groupBy: ['secret'] }, 'groupBy.0'],
      [{ aggregate: { count: ['*'] }, groupBy: [{ field: 'inspectedAt', interval: 'hour' }] }, 'groupBy.0'],
      [{ aggregate: { count: ['*'] }, groupBy: [{ field: 'capacity', interval: 'day' }] }, 'groupBy.0'],
      [{ aggregate: { count: ['*'] }, filter: { secret: 'x' } }, 'secret'],
      [{ aggregate: { count: ['*'] }, having: {} }, 'having'],
    ] as const) {
      const res = await agg(body);
      expect([res.status, fieldsOf(res)]).toEqual([400, [field]]);
    }
  });

  it('pages by cursor without duplicates or gaps while rows are inserted; forged cursors are 400', async () => {
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'readings',
        attributes: { tag: { type: 'uid', unique: true }, value: { type: 'integer' } },
      })
      .expect(201);
    const original: number[] = [];
    for (let i = 0; i < 30; i++) {
      const rec = await create('readings', {
        tag: `r${String(i).padStart(2, '0')}`,
        value: i % 4 === 0 ? null : i % 5,
      });
      original.push(rec.id);
    }
    let inserted = 0;
    for (const query of [
      {},
      { sort: 'tag', order: 'ASC' },
      { sort: 'tag', order: 'DESC' },
      { sort: 'value', order: 'ASC' },
      { sort: 'value', order: 'DESC' },
    ]) {
      const seen: number[] = [];
      let after: string | undefined;
      for (let guard = 0; guard < 20; guard++) {
        const [res] = await Promise.all([
          f.admin('get', '/api/cms/readings').query({ ...query, pageSize: 7, ...(after ? { after } : {}) }),
          create('readings', { tag: `n${inserted++}`, value: inserted % 3 }),
        ]);
        expect(res.status).toBe(200);
        seen.push(...res.body.data.map((r: Rec) => r.id));
        after = res.body.meta.pagination.nextCursor;
        if (after) expect(res.body.data).toHaveLength(7);
        if (!after) break;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(expect.arrayContaining(original));
    }
    // Rows come in the order of page numbers: the first page by cursor is page 1.
    const page1 = await f
      .admin('get', '/api/cms/readings')
      .query({ sort: 'value', order: 'ASC', pageSize: 5 })
      .expect(200);
    const page2 = await f
      .admin('get', '/api/cms/readings')
      .query({ sort: 'value', order: 'ASC', pageSize: 5, page: 2 })
      .expect(200);
    const byCursor = await f
      .admin('get', '/api/cms/readings')
      .query({ sort: 'value', order: 'ASC', pageSize: 5, after: page1.body.meta.pagination.nextCursor })
      .expect(200);
    expect(byCursor.body.data).toEqual(page2.body.data);
    expect(byCursor.body.meta.pagination.page).toBeNull();

    const cursor: string = page1.body.meta.pagination.nextCursor;
    const [body, mac] = cursor.split('.');
    const forgedBody = Buffer.from(JSON.stringify(['value', 'ASC', "0' OR 1=1 --", 1])).toString('base64url');
    for (const [query, path] of [
      [{ sort: 'value', order: 'ASC', after: `${forgedBody}.${mac}` }, '/api/cms/readings'],
      [
        { sort: 'value', order: 'ASC', after: `${body}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}` },
        '/api/cms/readings',
      ],
      [{ sort: 'value', order: 'DESC', after: cursor }, '/api/cms/readings'],
      [{ sort: 'tag', order: 'ASC', after: cursor }, '/api/cms/readings'],
      [{ after: cursor }, '/api/cms/readings'],
      [{ sort: 'value', order: 'ASC', after: cursor, page: 2 }, '/api/cms/readings'],
      [{ sort: 'value', order: 'ASC', after: 'not-a-cursor' }, '/api/cms/readings'],
      [{ sort: 'value', order: 'ASC', after: cursor }, '/api/cms/assets'],
    ] as const) {
      const res = await f.admin('get', path).query(query);
      expect([query, res.status, fieldsOf(res)]).toEqual([query, 400, ['after']]);
    }
    const bySearch = await f
      .admin('post', '/api/cms/readings/search')
      .query({ sort: 'value', order: 'ASC', pageSize: 5, after: cursor })
      .send({})
      .expect(200);
    expect(bySearch.body.data).toEqual(page2.body.data);
  });

  it('pages by number give the rows of the SQL order at every depth, sorted by a unique field or not, filtered or not', async () => {
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'gauges',
        attributes: {
          tag: { type: 'uid', unique: true },
          value: { type: 'integer' },
          price: { type: 'decimal' },
          installedOn: { type: 'date' },
          regions: { type: 'relation', relation: 'manyToMany', target: 'regions' },
        },
      })
      .expect(201);
    const regionIds = (await f.admin('get', '/api/cms/regions').expect(200)).body.data.map((r: Rec) => r.id);
    // Tags out of id order, some missing; values with ties and gaps.
    for (let i = 0; i < 41; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, 41 - i) }, (_, k) => i + k).map((n) =>
          create('gauges', {
            tag: n % 7 === 3 ? null : `g${String((n * 17) % 41).padStart(2, '0')}`,
            value: n % 5 === 0 ? null : n % 4,
            price: n / 4,
            installedOn: `2024-01-${String(1 + (n % 28)).padStart(2, '0')}`,
            regions: n % 3 ? [regionIds[n % 2]] : regionIds,
          }),
        ),
      );
    }
    const expected = async (column: string, order: 'ASC' | 'DESC', where?: string) =>
      (await sql<{ id: number }>(db, listOrderSql('cms_gauges', column, order, where))).map((r) => r.id);
    const all = await expected('id', 'ASC');
    expect(all).toHaveLength(41);
    for (const [sort, column] of [
      ['tag', 'tag'],
      ['value', 'value'],
      ['id', 'id'],
      ['installedOn', 'installed_on'],
    ]) {
      for (const order of ['ASC', 'DESC'] as const) {
        const listed = await idsByPages(
          (page) => f.admin('get', '/api/cms/gauges').query({ sort, order, pageSize: 6, page }),
          6,
        );
        expect([sort, order, listed.ids]).toEqual([sort, order, await expected(column, order)]);
        expect(new Set(listed.totals)).toEqual(new Set([41]));
        const filtered = await idsByPages(
          (page) =>
            f
              .admin('post', '/api/cms/gauges/search')
              .query({ sort, order, pageSize: 4, page })
              .send({ $or: [{ value: { $gte: 2 } }, { tag: { $null: true } }] }),
          4,
        );
        expect([sort, order, filtered.ids]).toEqual([
          sort,
          order,
          await expected(column, order, 'value >= 2 OR tag IS NULL'),
        ]);
        expect(new Set(filtered.totals)).toEqual(new Set([filtered.ids.length]));
      }
    }
    // A deep page answers its rows as the first page does: the same casts, relations and fields=.
    for (const fields of [undefined, 'tag,price,regions']) {
      const whole = await f
        .admin('get', '/api/cms/gauges')
        .query({ sort: 'tag', order: 'ASC', pageSize: 41, ...(fields ? { fields } : {}) })
        .expect(200);
      const deep = await f
        .admin('get', '/api/cms/gauges')
        .query({ sort: 'tag', order: 'ASC', pageSize: 5, page: 7, ...(fields ? { fields } : {}) })
        .expect(200);
      expect(deep.body.data).toEqual(whole.body.data.slice(30, 35));
      expect(deep.body.data[0].regions).toEqual(expect.any(Array));
    }
    // The page past the last is empty, with the total.
    const past = await f.admin('get', '/api/cms/gauges').query({ pageSize: 10, page: 6 }).expect(200);
    expect([past.body.data, past.body.meta.pagination.total]).toEqual([[], 41]);
  });

  it('refuses injection through filter names, operators, relations, groupBy, intervals, fields= and cursors', async () => {
    const count = async () =>
      (await sql<{ n: number }>(db, 'SELECT count(*)::int AS n FROM cms_assets'))[0].n;
    const before = await count();
    const attempts = [
      search({ 'name" = name OR 1=1 --': 'x' }),
      search({ $or: [{ 'code"; DROP TABLE cms_assets; --': 1 }] }),
      search({ capacity: { '$eq; DROP TABLE cms_assets': 1 } }),
      search({ capacity: { $between: ['1; DROP TABLE cms_assets', 2] } }),
      search({ region: { 'name" OR 1=1 --': 'x' } }),
      search({ region: { name: { '$eq) OR (1=1': 'x' } } }),
      search({ $not: { secret: { $notNull: true } } }),
      f
        .admin('post', '/api/cms/assets/aggregate')
        .send({ aggregate: { sum: ['capacity"); DROP TABLE cms_assets; --'] } }),
      f
        .admin('post', '/api/cms/assets/aggregate')
        .send({ aggregate: { 'count(*)); DROP TABLE cms_assets; --': ['*'] } }),
      f
        .admin('post', '/api/cms/assets/aggregate')
        .send({ aggregate: { count: ['*'] }, groupBy: ['level"; DROP TABLE cms_assets; --'] }),
      f.admin('post', '/api/cms/assets/aggregate').send({
        aggregate: { count: ['*'] },
        groupBy: [{ field: 'inspectedAt', interval: "day', t.secret) --" }],
      }),
      f.admin('get', '/api/cms/assets').query({ fields: 'code,secret"--' }),
      f.admin('get', '/api/cms/assets').query({ fields: 'code) FROM pg_user --' }),
      f.admin('get', '/api/cms/assets').query({ after: "x'; DROP TABLE cms_assets; --" }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(400);
    // Hostile strings are only values, in filters and as sort values carried by cursors.
    const hostile = "x'); DROP TABLE cms_assets; --";
    await create('assets', { code: 'z-hostile', name: hostile });
    expect(await codes({ name: { $startsWith: "x')" } })).toEqual(['z-hostile']);
    expect(await codes({ $or: [{ name: hostile }, { name: { $endsWith: '--' } }] })).toEqual(['z-hostile']);
    const first = await f
      .admin('get', '/api/cms/assets')
      .query({ sort: 'name', order: 'DESC', pageSize: 1 })
      .expect(200);
    expect(first.body.data[0].name).toBe(hostile);
    const next = await f
      .admin('get', '/api/cms/assets')
      .query({ sort: 'name', order: 'DESC', pageSize: 1, after: first.body.meta.pagination.nextCursor })
      .expect(200);
    expect(next.body.data[0].name).not.toBe(hostile);
    expect(await count()).toBe(before + 1);
  });
});
