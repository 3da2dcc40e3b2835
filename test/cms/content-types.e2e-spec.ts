import { renderTextPng, textPdf } from '../documents/fixtures';
import { upload } from '../documents/helpers';
import { clientDatabase, sql } from '../support/pg';
import { bootApp } from '../support/test-app';
import { cmsFixture, CmsFixture, fieldsOf } from './cms-helpers';

/** Content type definitions: every field type and option, real tables, PUT, delete, sync. */
describe('custom tables: content types', () => {
  let f: CmsFixture;
  let db: string;

  beforeAll(async () => {
    f = await cmsFixture();
    db = clientDatabase(f.t.masterDatabase, 'acme');
  });
  afterAll(() => f?.close());

  const columnsOf = async (table: string, schema = 'public') =>
    (
      await sql<{ column_name: string; data_type: string }>(
        db,
        `SELECT column_name, format_type(a.atttypid, a.atttypmod) AS data_type FROM information_schema.columns c
           JOIN pg_attribute a ON a.attname = c.column_name AND a.attrelid = ($2 || '.' || $1)::regclass
          WHERE c.table_schema = $2 AND c.table_name = $1`,
        [table, schema],
      )
    ).reduce<Record<string, string>>((acc, c) => ({ ...acc, [c.column_name]: c.data_type }), {});

  const EVERY_TYPE = {
    collectionName: 'everything',
    info: { singularName: 'thing', pluralName: 'things', displayName: 'Everything' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string', required: true, minLength: 2, maxLength: 40, regex: '^[A-Z]' },
      plain: { type: 'string', default: 'none' },
      body: { type: 'text' },
      rich: { type: 'richtext', maxLength: 1000 },
      count: { type: 'integer', min: 0, max: 10 },
      big: { type: 'biginteger' },
      ratio: { type: 'float' },
      price: { type: 'decimal', min: 0 },
      active: { type: 'boolean', default: true },
      day: { type: 'date' },
      at: { type: 'time' },
      happenedAt: { type: 'datetime' },
      extra: { type: 'json' },
      level: { type: 'enumeration', enum: ['LOW', 'HIGH'] },
      mail: { type: 'email', unique: true },
      slug: { type: 'uid', unique: true },
      secret: { type: 'string', private: true },
      photo: { type: 'media', allowedTypes: ['images'] },
      photos: { type: 'media', multiple: true },
    },
  };

  it('creates a type with every field type: real columns of the mapped types, the spec envelope', async () => {
    const res = await f.admin('post', '/api/cms/content-types').send(EVERY_TYPE).expect(201);
    expect(res.body).toMatchObject({ success: true, collectionName: 'everything' });
    expect(res.body.schema.attributes.title).toEqual(EVERY_TYPE.attributes.title);
    const columns = await columnsOf('cms_everything');
    expect(columns).toMatchObject({
      id: 'bigint',
      created_at: 'timestamp with time zone',
      publication_status: 'character varying(20)',
      published_by_id: 'integer',
      title: 'character varying(40)',
      plain: 'character varying(255)',
      body: 'text',
      rich: 'text',
      count: 'integer',
      big: 'bigint',
      ratio: 'real',
      price: 'numeric(10,2)',
      active: 'boolean',
      day: 'date',
      at: 'time without time zone',
      happened_at: 'timestamp with time zone',
      extra: 'jsonb',
      level: 'character varying(100)',
      mail: 'character varying(255)',
      slug: 'character varying(255)',
      secret: 'character varying(255)',
      photo: 'bigint',
      photos: 'jsonb',
    });
    const indexes = await sql<{ indexdef: string }>(
      db,
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'cms_everything'`,
    );
    expect(
      indexes.filter((i) => i.indexdef.includes('UNIQUE') && /\((mail|slug)\)/.test(i.indexdef)),
    ).toHaveLength(2);

    const list = await f.admin('get', '/api/cms/content-types').expect(200);
    expect(list.body.data.map((d: { collectionName: string }) => d.collectionName)).toContain('everything');
    const one = await f.admin('get', '/api/cms/content-types/everything').expect(200);
    expect(one.body.data.collectionName).toBe('everything');
    const count = await f.admin('get', '/api/cms/content-types/count').expect(200);
    expect(count.body).toEqual({ data: { count: 1 } });
  });

  it('round-trips every type of value; defaults fill; private never returned', async () => {
    // Media values are uploaded files of the caller's company.
    const admin = { 'X-Client-ID': 'acme', Authorization: `Bearer ${f.acme.adminToken}` };
    const companies = await f.admin('get', '/api/admin/companies').expect(200);
    const companyId = Math.min(...companies.body.data.map((c: { id: number }) => c.id));
    const files = [
      ['photo.png', renderTextPng(['Photo'])],
      ['a.pdf', textPdf(['A'])],
      ['b.pdf', textPdf(['B'])],
    ] as [string, Buffer][];
    const uploaded = await upload(f.t, admin, companyId, files).expect(201);
    const [photo, ...photos] = uploaded.body.map((u: { id: number }) => u.id);
    const record = {
      title: 'Alpha',
      body: 'long text',
      rich: '<p>hi</p>',
      count: 3,
      big: 9007199254740991,
      ratio: 0.5,
      price: 12.34,
      day: '2026-02-28',
      at: '13:45:00',
      happenedAt: '2026-03-01T10:00:00',
      extra: { a: [1, 2], b: null },
      level: 'HIGH',
      mail: 'x@example.com',
      slug: 'alpha-1',
      secret: 'hidden',
      photo,
      photos,
    };
    const created = await f.admin('post', '/api/cms/everything').send(record).expect(201);
    const visible: Partial<typeof record> = { ...record };
    delete visible.secret;
    expect(created.body.data).toMatchObject({
      ...visible,
      happenedAt: '2026-03-01T10:00:00.000Z',
      plain: 'none',
      active: true,
    });
    expect(created.body.data).not.toHaveProperty('secret');
    expect(created.body.data).not.toHaveProperty('publicationStatus');
    expect(typeof created.body.data.id).toBe('number');
    const got = await f.admin('get', `/api/cms/everything/${created.body.data.id}`).expect(200);
    expect(got.body.data).toEqual(created.body.data);
    const stored = await sql(db, `SELECT secret FROM cms_everything WHERE id = $1`, [created.body.data.id]);
    expect(stored[0].secret).toBe('hidden');
  });

  it('refuses every value the options or the column cannot take, naming the field', async () => {
    const base = { title: 'Beta' };
    const cases: [Record<string, unknown>, string][] = [
      [{ title: undefined }, 'title'],
      [{ title: 'B' }, 'title'],
      [{ title: 'lowercase' }, 'title'],
      [{ title: 'B'.repeat(41) }, 'title'],
      [{ count: 11 }, 'count'],
      [{ count: -1 }, 'count'],
      [{ count: 1.5 }, 'count'],
      [{ count: 2147483648 }, 'count'],
      [{ big: '99999999999999999999' }, 'big'],
      [{ ratio: 'x' }, 'ratio'],
      [{ price: 123456789 }, 'price'],
      [{ price: -1 }, 'price'],
      [{ active: 'yes' }, 'active'],
      [{ day: '2026-02-30' }, 'day'],
      [{ at: '25:00' }, 'at'],
      [{ happenedAt: 'yesterday' }, 'happenedAt'],
      [{ level: 'MEDIUM' }, 'level'],
      [{ mail: 'not-an-email' }, 'mail'],
      [{ slug: 'has space' }, 'slug'],
      [{ photo: 'a' }, 'photo'],
      [{ photos: 3 }, 'photos'],
      [{ unknownField: 1 }, 'unknownField'],
      [{ id: 5 }, 'id'],
      [{ createdAt: '2026-01-01T00:00:00Z' }, 'createdAt'],
    ];
    for (const [change, field] of cases) {
      const body = { ...base, ...change };
      if (change.title === undefined && 'title' in change) delete (body as Record<string, unknown>).title;
      const res = await f.admin('post', '/api/cms/everything').send(body);
      expect([res.status, field, fieldsOf(res)]).toEqual([400, field, expect.arrayContaining([field])]);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('answers 409 for a unique value taken, on create and update', async () => {
    await f
      .admin('post', '/api/cms/everything')
      .send({ title: 'Gamma', mail: 'dup@example.com' })
      .expect(201);
    const dup = await f
      .admin('post', '/api/cms/everything')
      .send({ title: 'Delta', mail: 'dup@example.com' })
      .expect(409);
    expect(dup.body.error.code).toBe('CONFLICT');
    const other = await f.admin('post', '/api/cms/everything').send({ title: 'Epsilon' }).expect(201);
    await f
      .admin('put', `/api/cms/everything/${other.body.data.id}`)
      .send({ mail: 'dup@example.com' })
      .expect(409);
    const updated = await f
      .admin('put', `/api/cms/everything/${other.body.data.id}`)
      .send({ count: 4 })
      .expect(200);
    expect(updated.body.data).toMatchObject({ title: 'Epsilon', count: 4 });
    await f.admin('put', `/api/cms/everything/${other.body.data.id}`).send({ title: null }).expect(400);
  });

  it('takes every attribute name the pattern allows: long camelCase names get short stable columns', async () => {
    // 63 characters each, 83 once in snake_case; they differ only at the end.
    const longA = `a${'BcDe'.repeat(15)}Fa`;
    const longB = `a${'BcDe'.repeat(15)}Fb`;
    expect(longA).toHaveLength(63);
    const type = {
      collectionName: 'long_names',
      options: { draftAndPublish: false },
      attributes: { [longA]: { type: 'string', unique: true }, [longB]: { type: 'integer' } },
    };
    await f.admin('post', '/api/cms/content-types').send(type).expect(201);
    const columns = Object.keys(await columnsOf('cms_long_names')).filter((c) => c.startsWith('a_'));
    expect(columns).toHaveLength(2);
    for (const column of columns) expect(column.length).toBeLessThanOrEqual(63);

    const created = await f
      .admin('post', '/api/cms/long_names')
      .send({ [longA]: 'first', [longB]: 7 })
      .expect(201);
    expect(created.body.data).toMatchObject({ [longA]: 'first', [longB]: 7 });
    const found = await f
      .admin('post', '/api/cms/long_names/search')
      .send({ [longB]: 7 })
      .expect(200);
    expect(found.body.data.map((r: Record<string, unknown>) => r[longA])).toEqual(['first']);
    const taken = await f.admin('post', '/api/cms/long_names').send({ [longA]: 'first', [longB]: 8 });
    expect(taken.status).toBe(409);
    // A second definition change leaves the columns in place (the same name gets the same column).
    await f
      .admin('put', '/api/cms/content-types/long_names')
      .send({ attributes: { ...type.attributes, note: { type: 'text' } } })
      .expect(200);
    const after = await f.admin('get', `/api/cms/long_names/${created.body.data.id}`).expect(200);
    expect(after.body.data[longA]).toBe('first');
    await f.admin('delete', '/api/cms/content-types/long_names').expect(204);
  });

  it('refuses bad definitions with details: names, system fields, options, unsafe regex, missing type', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ collectionName: 'Bad-Name', attributes: { a: { type: 'string' } } }, 'collectionName'],
      [{ collectionName: 'x'.repeat(41), attributes: { a: { type: 'string' } } }, 'collectionName'],
      [{ collectionName: 'select', attributes: { a: { type: 'string' } } }, 'collectionName'],
      [{ collectionName: 'ok_name', attributes: { id: { type: 'string' } } }, 'attributes.id'],
      [{ collectionName: 'ok_name', attributes: { createdAt: { type: 'string' } } }, 'attributes.createdAt'],
      [
        { collectionName: 'ok_name', attributes: { created_at: { type: 'string' } } },
        'attributes.created_at',
      ],
      [
        { collectionName: 'ok_name', attributes: { 'a"; DROP TABLE x;--': { type: 'string' } } },
        'attributes.a"; DROP TABLE x;--',
      ],
      [{ collectionName: 'ok_name', attributes: { a: {} } }, 'attributes.a.type'],
      [{ collectionName: 'ok_name', attributes: { a: { type: 'money' } } }, 'attributes.a.type'],
      [
        { collectionName: 'ok_name', attributes: { a: { type: 'integer', regex: 'x' } } },
        'attributes.a.regex',
      ],
      [
        { collectionName: 'ok_name', attributes: { a: { type: 'string', regex: '^(a)\\1$' } } },
        'attributes.a.regex',
      ],
      [
        { collectionName: 'ok_name', attributes: { a: { type: 'string', regex: '^(?=a)\\w+$' } } },
        'attributes.a.regex',
      ],
      [
        { collectionName: 'ok_name', attributes: { a: { type: 'string', regex: '(' } } },
        'attributes.a.regex',
      ],
      [{ collectionName: 'ok_name', attributes: { a: { type: 'enumeration' } } }, 'attributes.a.enum'],
      [
        { collectionName: 'ok_name', attributes: { a: { type: 'integer', default: 'x' } } },
        'attributes.a.default',
      ],
      [
        {
          collectionName: 'ok_name',
          attributes: { a: { type: 'relation', relation: 'manyToOne', target: 'nowhere' } },
        },
        'attributes.a.target',
      ],
      [
        {
          collectionName: 'ok_name',
          attributes: { a: { type: 'relation', relation: 'sideways', target: 'ok_name' } },
        },
        'attributes.a.relation',
      ],
      [
        { collectionName: 'ok_name', attributes: { a: { type: 'string', minLength: 5, maxLength: 2 } } },
        'attributes.a.minLength',
      ],
      [
        { collectionName: 'ok_name', attributes: { a: { type: 'media', allowedTypes: ['videos'] } } },
        'attributes.a.allowedTypes',
      ],
      [{ collectionName: 'ok_name', attributes: { a: { type: 'string' } }, owner: 1 }, 'owner'],
      [
        {
          collectionName: 'ok_name',
          attributes: { fooBar: { type: 'string' }, foo_bar: { type: 'string' } },
        },
        'attributes.foo_bar',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await f.admin('post', '/api/cms/content-types').send(body);
      expect([res.status, field, fieldsOf(res)]).toEqual([400, field, expect.arrayContaining([field])]);
    }
    const tables = await sql(db, `SELECT 1 FROM information_schema.tables WHERE table_name = 'cms_ok_name'`);
    expect(tables).toHaveLength(0);
    await f.admin('post', '/api/cms/content-types').send(EVERY_TYPE).expect(409);
  });

  it('evaluates a pattern in linear time: an exponential one for backtracking answers at once, others meanwhile', async () => {
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'codes',
        attributes: { code: { type: 'string', regex: '^([a-z]|[a-z0-9])+$' } },
      })
      .expect(201);
    const started = Date.now();
    const [write, health] = await Promise.all([
      f.admin('post', '/api/cms/codes').send({ code: `${'a'.repeat(254)}!` }),
      new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
        f.t.http().get('/management/health/liveness'),
      ),
    ]);
    expect(Date.now() - started).toBeLessThan(500);
    expect([write.status, fieldsOf(write), health.status]).toEqual([400, ['code'], 200]);
    await f.admin('post', '/api/cms/codes').send({ code: 'abc123' }).expect(201);
    await f.admin('delete', '/api/cms/content-types/codes').expect(204);
  });

  it('PUT adds, drops and changes fields with rows kept; a change the data cannot take is 409 and changes nothing', async () => {
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'assets',
        attributes: { name: { type: 'string' }, code: { type: 'string' }, old: { type: 'integer' } },
      })
      .expect(201);
    const a = await f.admin('post', '/api/cms/assets').send({ name: 'Pump', code: '42', old: 1 }).expect(201);
    await f.admin('post', '/api/cms/assets').send({ name: 'Valve', code: 'X9' }).expect(201);

    const put = await f
      .admin('put', '/api/cms/content-types/assets')
      .send({
        attributes: {
          name: { type: 'text' },
          code: { type: 'string', maxLength: 20 },
          weight: { type: 'float' },
        },
      })
      .expect(200);
    expect(Object.keys(put.body.data.attributes)).toEqual(['name', 'code', 'weight']);
    const columns = await columnsOf('cms_assets');
    expect(columns).toMatchObject({ name: 'text', code: 'character varying(20)', weight: 'real' });
    expect(columns).not.toHaveProperty('old');
    const kept = await f.admin('get', `/api/cms/assets/${a.body.data.id}`).expect(200);
    expect(kept.body.data).toMatchObject({ name: 'Pump', code: '42', weight: null });
    expect(kept.body.data).not.toHaveProperty('old');

    // 'X9' cannot become an integer: 409, table and definition unchanged.
    const refused = await f
      .admin('put', '/api/cms/content-types/assets')
      .send({ attributes: { name: { type: 'text' }, code: { type: 'integer' }, extra: { type: 'boolean' } } })
      .expect(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect(await columnsOf('cms_assets')).toMatchObject({ code: 'character varying(20)' });
    expect(await columnsOf('cms_assets')).not.toHaveProperty('extra');
    const def = await f.admin('get', '/api/cms/content-types/assets').expect(200);
    expect(def.body.data.attributes.code).toEqual({ type: 'string', maxLength: 20 });

    // A unique index the rows violate is 409 as well.
    await f.admin('post', '/api/cms/assets').send({ name: 'Pump' }).expect(201);
    await f
      .admin('put', '/api/cms/content-types/assets')
      .send({
        attributes: {
          name: { type: 'text', unique: true },
          code: { type: 'string', maxLength: 20 },
          weight: { type: 'float' },
        },
      })
      .expect(409);
    await f
      .admin('put', '/api/cms/content-types/assets')
      .send({ collectionName: 'other', attributes: { a: { type: 'string' } } })
      .expect(400);
    // Narrowing an enumeration below the values the rows hold is 409 too.
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'levels',
        attributes: { level: { type: 'enumeration', enum: ['LOW', 'HIGH'] } },
      })
      .expect(201);
    await f.admin('post', '/api/cms/levels').send({ level: 'HIGH' }).expect(201);
    await f
      .admin('put', '/api/cms/content-types/levels')
      .send({ attributes: { level: { type: 'enumeration', enum: ['LOW'] } } })
      .expect(409);
    await f
      .admin('put', '/api/cms/content-types/levels')
      .send({ attributes: { level: { type: 'enumeration', enum: ['HIGH', 'MAX'] } } })
      .expect(200);
    await f
      .admin('put', '/api/cms/content-types/missing')
      .send({ attributes: { a: { type: 'string' } } })
      .expect(404);
  });

  it('sync creates a column dropped by hand, warns on a column added by hand, skips tables in step', async () => {
    const clean = await f.admin('post', '/api/cms/migrations/sync').expect(200);
    expect(clean.body).toMatchObject({ success: true, errors: [], successes: [], warnings: [] });
    expect(clean.body.skipped).toEqual(expect.arrayContaining(['assets', 'everything']));

    await sql(db, `ALTER TABLE cms_assets DROP COLUMN weight`);
    await sql(db, `ALTER TABLE cms_assets ADD COLUMN legacy text`);
    const res = await f.admin('post', '/api/cms/migrations/sync').expect(200);
    expect(res.body.success).toBe(true);
    expect(res.body.successes).toEqual(['cms_assets.weight: column created']);
    expect(res.body.warnings).toEqual([expect.stringContaining('cms_assets.legacy')]);
    expect(res.body.skipped).toEqual(['everything', 'levels']);
    expect(await columnsOf('cms_assets')).toMatchObject({ weight: 'real', legacy: 'text' });
    await f.admin('post', '/api/cms/assets').send({ name: 'After sync', weight: 1.5 }).expect(201);

    // A cms_ table no definition names is reported, never dropped.
    await sql(db, `CREATE TABLE cms_orphan (id bigserial PRIMARY KEY)`);
    const orphan = await f.admin('post', '/api/cms/migrations/sync').expect(200);
    expect(orphan.body.warnings).toEqual(expect.arrayContaining([expect.stringContaining('cms_orphan')]));
    expect(orphan.body.successes).toEqual([]);
    expect(
      await sql(db, `SELECT 1 FROM information_schema.tables WHERE table_name = 'cms_orphan'`),
    ).toHaveLength(1);
    await sql(db, `DROP TABLE cms_orphan`);
  });

  it('serialises two concurrent definition changes: one creation wins, parallel PUTs leave table and definition in step', async () => {
    const body = { collectionName: 'racing', attributes: { a: { type: 'string' } } };
    const [r1, r2] = await Promise.all([
      f.admin('post', '/api/cms/content-types').send(body),
      f.admin('post', '/api/cms/content-types').send(body),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([201, 409]);

    const puts = await Promise.all(
      ['b', 'c', 'd'].map((name) =>
        f
          .admin('put', '/api/cms/content-types/racing')
          .send({ attributes: { a: { type: 'string' }, [name]: { type: 'integer' } } }),
      ),
    );
    expect(puts.map((p) => p.status)).toEqual([200, 200, 200]);
    const def = await f.admin('get', '/api/cms/content-types/racing').expect(200);
    const columns = Object.keys(await columnsOf('cms_racing')).filter(
      (c) => !/_at$|_id$|^id$|publication_status/.test(c),
    );
    expect(columns.sort()).toEqual(Object.keys(def.body.data.attributes).sort());
    const sync = await f.admin('post', '/api/cms/migrations/sync').expect(200);
    expect(sync.body.skipped).toContain('racing');
  });

  it('answers an OpenAPI fragment for a type; deletes a type with its table (204)', async () => {
    const doc = await f.admin('get', '/api/cms/content-types/everything/openapi').expect(200);
    expect(doc.body.data.openapi).toMatch(/^3\./);
    expect(doc.body.data.paths['/api/cms/everything']).toBeDefined();
    expect(doc.body.data.components.schemas.Everything.properties.title).toMatchObject({
      type: 'string',
      maxLength: 40,
    });
    expect(doc.body.data.components.schemas.Everything.properties).not.toHaveProperty('secret');
    expect(doc.body.data.components.schemas.EverythingInput.required).toEqual(['title']);

    await f.admin('delete', '/api/cms/content-types/racing').expect(204);
    expect(
      await sql(db, `SELECT 1 FROM information_schema.tables WHERE table_name = 'cms_racing'`),
    ).toHaveLength(0);
    await f.admin('get', '/api/cms/content-types/racing').expect(404);
    await f.admin('get', '/api/cms/racing').expect(404);
  });

  it('drops the compiled types of every replica when a type changes (Redis pub/sub)', async () => {
    const second = await bootApp({ masterDatabase: f.t.masterDatabase, env: { SMTP_URL: f.sink.url } });
    try {
      const other = (method: 'get' | 'post', path: string) =>
        second
          .http()
          [method](path)
          .set({ 'X-Client-ID': 'acme', Authorization: `Bearer ${f.acme.adminToken}` });
      await other('get', '/api/cms/replicated').expect(404); // the second replica caches the types
      await f
        .admin('post', '/api/cms/content-types')
        .send({ collectionName: 'replicated', attributes: { a: { type: 'string' } } })
        .expect(201);
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = (await other('get', '/api/cms/replicated')).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      await f
        .admin('put', '/api/cms/content-types/replicated')
        .send({ attributes: { a: { type: 'string' }, b: { type: 'integer' } } })
        .expect(200);
      let created = 0;
      for (let i = 0; i < 50 && created !== 201; i++) {
        created = (await other('post', '/api/cms/replicated').send({ b: 1 })).status;
        if (created !== 201) await new Promise((r) => setTimeout(r, 100));
      }
      expect(created).toBe(201);
    } finally {
      await second.close();
    }
  });
});
