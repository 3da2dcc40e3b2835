import { createUser, loginFull } from '../identity/identity-helpers';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';

type Row = Record<string, unknown> & { id: number };

/**
 * Built-in lists on the record engine: the filter language (with `$or`), cursors, `fields=` and
 * aggregates, as custom tables take them, always within the caller's company.
 */
describe('built-in lists through the record engine', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let acme: ProvisionedClient;
  let farToken: string;

  const as = (token: string) => ({ 'X-Client-ID': 'acme', Authorization: `Bearer ${token}` });
  const admin = (method: 'get' | 'post', path: string) => t.http()[method](path).set(as(acme.adminToken));
  const far = (method: 'get' | 'post', path: string) => t.http()[method](path).set(as(farToken));
  const ids = (res: { body: { data: Row[] } }) => res.body.data.map((r) => r.id);

  const mine: number[] = [];
  let farOutage: number;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { SMTP_URL: sink.url } });
    acme = await provisionClient(t, sink, 'acme');
    const company = await admin('post', '/api/admin/companies').send({ name: 'Elsewhere' });
    const user = { email: 'far@acme.test', password: 'Far-password-1', role: 'MANAGER' as const };
    await createUser(t, acme.adminToken, { ...user, companyId: company.body.data.id }, 'acme');
    farToken = (await loginFull(t, user.email, user.password, 'acme')).body.jwt;

    for (const [title, outageType] of [
      ['Engine A', 'PLANNED'],
      ['Engine B', 'FORCED'],
      ['Engine C', 'MAINTENANCE'],
      ['Engine D', 'FORCED'],
    ]) {
      const res = await admin('post', '/api/outages').send({ title, outageType }).expect(201);
      mine.push(res.body.data.id);
    }
    const theirs = await far('post', '/api/outages').send({ title: 'Far', outageType: 'FORCED' }).expect(201);
    farOutage = theirs.body.data.id;
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  it('filters outages with the filter language, $or included, and leaves the default envelope as it was', async () => {
    const filter = JSON.stringify({
      $or: [{ outageType: 'PLANNED' }, { title: { $startsWith: 'Engine D' } }],
    });
    const res = await admin('get', '/api/outages').query({ filter, sort: 'id', order: 'ASC' }).expect(200);
    expect(ids(res)).toEqual([mine[0], mine[3]]);
    expect(res.body.meta.pagination).toMatchObject({ total: 2, nextCursor: null });

    const plain = await admin('get', '/api/outages').expect(200);
    expect(Object.keys(plain.body.meta.pagination).sort()).toEqual([
      'page',
      'pageCount',
      'pageSize',
      'total',
    ]);

    const bad = await admin('get', '/api/outages').query({ filter: '{"nope":1}' }).expect(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(['nope']);
  });

  it('pages outages by cursor and narrows them with fields=', async () => {
    const first = await admin('get', '/api/outages')
      .query({ fields: 'title', pageSize: 2, sort: 'title', order: 'DESC' })
      .expect(200);
    expect(first.body.data.map((r: Row) => Object.keys(r).sort())).toEqual([
      ['id', 'title'],
      ['id', 'title'],
    ]);
    const titles = first.body.data.map((r: Row) => r.title);
    const next = await admin('get', '/api/outages')
      .query({
        fields: 'title',
        pageSize: 2,
        sort: 'title',
        order: 'DESC',
        after: first.body.meta.pagination.nextCursor,
      })
      .expect(200);
    expect(next.body.meta.pagination.page).toBeNull();
    const all = [...titles, ...next.body.data.map((r: Row) => r.title)];
    expect(all).toEqual([...all].sort().reverse());
    expect(new Set(all).size).toBe(4);
  });

  it('narrows units with fields= as their documented list allows', async () => {
    await admin('post', '/api/units').send({ name: 'Narrow unit', capacityMw: 12.5 }).expect(201);
    const res = await admin('get', '/api/units').query({ fields: 'name', pageSize: 5 }).expect(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const unit of res.body.data) expect(Object.keys(unit).sort()).toEqual(['id', 'name']);
  });

  it('aggregates outages grouped by type', async () => {
    const res = await admin('post', '/api/outages/aggregate')
      .send({
        aggregate: { count: ['*'] },
        groupBy: ['outageType'],
        filter: { title: { $startsWith: 'Engine' } },
      })
      .expect(200);
    expect(res.body.data).toEqual([
      { group: { outageType: 'FORCED' }, count: { '*': 2 } },
      { group: { outageType: 'MAINTENANCE' }, count: { '*': 1 } },
      { group: { outageType: 'PLANNED' }, count: { '*': 1 } },
    ]);
  });

  it("never shows another company's records through a filter, a cursor or an aggregate", async () => {
    const filter = JSON.stringify({ $or: [{ outageType: 'FORCED' }, { outageType: 'PLANNED' }] });
    const filtered = await far('get', '/api/outages').query({ filter }).expect(200);
    expect(ids(filtered)).toEqual([farOutage]);

    const byId = await far('get', '/api/outages')
      .query({ filter: JSON.stringify({ id: { $in: mine } }) })
      .expect(200);
    expect(byId.body.data).toEqual([]);

    // A cursor made by the admin over every company's rows reads only the caller's company for them.
    const first = await admin('get', '/api/outages').query({ pageSize: 1, fields: 'title' }).expect(200);
    const cursor = first.body.meta.pagination.nextCursor as string;
    const after = await far('get', '/api/outages')
      .query({ pageSize: 25, fields: 'title', after: cursor })
      .expect(200);
    expect(ids(after).every((id) => id === farOutage)).toBe(true);

    const counted = await far('post', '/api/outages/aggregate')
      .send({ aggregate: { count: ['*'] } })
      .expect(200);
    expect(counted.body.data).toEqual([{ count: { '*': 1 } }]);
  });

  it('gives work orders the same query power within the company', async () => {
    const unit = await admin('post', '/api/units').send({ name: 'Engine unit' }).expect(201);
    const unitId = unit.body.data.id;
    for (const [title, priority] of [
      ['WO low', 'LOW'],
      ['WO high', 'HIGH'],
      ['WO critical', 'CRITICAL'],
    ]) {
      await admin('post', '/api/work-orders').send({ title, priority, unitId }).expect(201);
    }
    const filter = JSON.stringify({ $or: [{ priority: 'HIGH' }, { priority: 'CRITICAL' }] });
    const res = await admin('get', '/api/work-orders')
      .query({ filter, unitId, fields: 'title,priority', sort: 'title', order: 'ASC', pageSize: 1 })
      .expect(200);
    expect(res.body.data).toEqual([{ id: expect.any(Number), title: 'WO critical', priority: 'CRITICAL' }]);
    const next = await admin('get', '/api/work-orders')
      .query({
        filter,
        unitId,
        fields: 'title,priority',
        sort: 'title',
        order: 'ASC',
        pageSize: 1,
        after: res.body.meta.pagination.nextCursor,
      })
      .expect(200);
    expect(next.body.data.map((r: Row) => r.title)).toEqual(['WO high']);

    const grouped = await admin('post', '/api/work-orders/aggregate')
      .send({ aggregate: { count: ['*'] }, groupBy: ['priority'], filter: { unitId } })
      .expect(200);
    expect(grouped.body.data).toHaveLength(3);

    const theirs = await far('get', '/api/work-orders')
      .query({ filter: JSON.stringify({ unitId }) })
      .expect(200);
    expect(theirs.body.data).toEqual([]);
    const theirCount = await far('post', '/api/work-orders/aggregate')
      .send({ aggregate: { count: ['*'] } })
      .expect(200);
    expect(theirCount.body.data).toEqual([{ count: { '*': 0 } }]);
  });
});
