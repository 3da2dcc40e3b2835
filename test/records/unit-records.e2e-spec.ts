import { createUser, loginFull } from '../identity/identity-helpers';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';

/** Work orders and failures as the records layer serves them: pages, sorting, scope, references. */
describe('unit records (work orders, failures)', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let acme: ProvisionedClient;
  let farToken: string;

  const as = (token: string) => ({ 'X-Client-ID': 'acme', Authorization: `Bearer ${token}` });
  const admin = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
    t.http()[method](path).set(as(acme.adminToken));
  const far = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
    t.http()[method](path).set(as(farToken));
  const fields = (res: { body: { error: { details: { field: string }[] } } }) =>
    res.body.error.details.map((d) => d.field);

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { SMTP_URL: sink.url } });
    acme = await provisionClient(t, sink, 'acme');
    const company = await admin('post', '/api/admin/companies').send({ name: 'Elsewhere' });
    const user = { email: 'far@acme.test', password: 'Far-password-1', role: 'MANAGER' as const };
    await createUser(t, acme.adminToken, { ...user, companyId: company.body.data.id }, 'acme');
    farToken = (await loginFull(t, user.email, user.password, 'acme')).body.jwt;
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  it('pages and sorts by an allowed field, newest id first by default; anything else is 400', async () => {
    const unit = await admin('post', '/api/units').send({ name: 'Sorted unit' }).expect(201);
    const unitId = unit.body.data.id;
    for (const [title, priority] of [
      ['B', 'LOW'],
      ['C', 'HIGH'],
      ['A', 'MEDIUM'],
    ]) {
      await admin('post', '/api/work-orders').send({ title, priority, unitId }).expect(201);
    }
    const byDefault = await admin('get', '/api/work-orders').query({ unitId }).expect(200);
    expect(byDefault.body.data.map((w: { title: string }) => w.title)).toEqual(['A', 'C', 'B']);
    expect(byDefault.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 3 });

    const byTitle = await admin('get', '/api/work-orders')
      .query({ unitId, sort: 'title', order: 'ASC', pageSize: 2, page: 2 })
      .expect(200);
    expect(byTitle.body.data.map((w: { title: string }) => w.title)).toEqual(['C']);
    expect(byTitle.body.meta.pagination).toEqual({ page: 2, pageSize: 2, pageCount: 2, total: 3 });

    for (const [query, field] of [
      [{ sort: 'description' }, 'sort'],
      [{ sort: 'due_date' }, 'sort'],
      [{ order: 'sideways' }, 'order'],
      [{ pageSize: 101 }, 'pageSize'],
      [{ page: 0 }, 'page'],
    ] as const) {
      const res = await admin('get', '/api/failures').query(query);
      expect(res.status).toBe(400);
      expect(fields(res)).toContain(field);
    }
  });

  it("keeps other companies' records and references out of reach: 404 for records, 400 naming the field", async () => {
    const unit = await admin('post', '/api/units').send({ name: 'Acme unit' }).expect(201);
    const order = await admin('post', '/api/work-orders')
      .send({ title: 'Acme order', unitId: unit.body.data.id })
      .expect(201);
    const orderId = order.body.data.id;

    expect((await far('get', `/api/work-orders/${orderId}`)).status).toBe(404);
    expect((await far('put', `/api/work-orders/${orderId}`).send({ title: 'x' })).status).toBe(404);
    const seen = await far('get', '/api/work-orders').expect(200);
    expect(seen.body.data).toEqual([]);

    const foreignUnit = await far('post', '/api/work-orders').send({ title: 'x', unitId: unit.body.data.id });
    expect(foreignUnit.status).toBe(400);
    expect(fields(foreignUnit)).toEqual(['unitId']);

    const farUnit = await far('post', '/api/units').send({ name: 'Far unit' }).expect(201);
    const foreignOrder = await far('post', '/api/failures').send({
      title: 'Leak',
      unitId: farUnit.body.data.id,
      workOrderId: orderId,
    });
    expect(foreignOrder.status).toBe(400);
    expect(fields(foreignOrder)).toEqual(['workOrderId']);
  });

  it('updates only the given fields, refuses null for required ones and stamps closing', async () => {
    const unit = await admin('post', '/api/units').send({ name: 'Stamped unit' }).expect(201);
    const failure = await admin('post', '/api/failures')
      .send({ title: 'Vibration', unitId: unit.body.data.id, occurredAt: '2026-11-20T08:30:00Z' })
      .expect(201);
    const id = failure.body.data.id;
    expect(failure.body.data).toMatchObject({ status: 'OPEN', severity: 'MEDIUM', resolvedAt: null });
    expect(failure.body.data.workOrderId).toBeNull();

    const nulled = await admin('put', `/api/failures/${id}`).send({ title: null, severity: null });
    expect(nulled.status).toBe(400);
    expect(fields(nulled)).toEqual(['title', 'severity']);

    const resolved = await admin('put', `/api/failures/${id}`).send({ status: 'RESOLVED' }).expect(200);
    expect(resolved.body.data.resolvedAt).not.toBeNull();
    expect(resolved.body.data.occurredAt).toBe('2026-11-20T08:30:00.000Z');
    const reopened = await admin('put', `/api/failures/${id}`)
      .send({ status: 'OPEN', occurredAt: null })
      .expect(200);
    expect(reopened.body.data).toMatchObject({ resolvedAt: null, occurredAt: null, title: 'Vibration' });

    await admin('delete', `/api/failures/${id}`).expect(204);
    expect((await admin('get', `/api/failures/${id}`)).status).toBe(404);
    expect((await admin('delete', `/api/failures/${id}`)).status).toBe(404);
  });

  it('documents each route with its summary, body, query and answer types', async () => {
    const doc = (await t.http().get('/api/docs-json').expect(200)).body;
    const list = doc.paths['/api/work-orders'].get;
    expect(list.summary).toBe('List work orders (paged, company-scoped)');
    expect(list.responses['200'].content['application/json'].schema.$ref).toMatch(/WorkOrderPageDto$/);
    const sort = list.parameters.find((p: { name: string }) => p.name === 'sort');
    expect(sort.schema.enum).toContain('dueDate');
    const create = doc.paths['/api/failures'].post;
    expect(create.summary).toBe('Record a failure of a unit');
    expect(create.requestBody.content['application/json'].schema.$ref).toMatch(/CreateFailureDto$/);
    expect(create.responses['201'].content['application/json'].schema.$ref).toMatch(/FailureEnvelopeDto$/);
    expect(Object.keys(doc.components.schemas.CreateFailureDto.properties)).toEqual(
      expect.arrayContaining(['title', 'unitId', 'workOrderId', 'severity', 'occurredAt']),
    );
    expect(doc.paths['/api/units/{id}'].delete.responses['204']).toBeDefined();
    expect(doc.paths['/api/units'].get.responses['200'].content['application/json'].schema.$ref).toMatch(
      /UnitPageDto$/,
    );
  });
});
