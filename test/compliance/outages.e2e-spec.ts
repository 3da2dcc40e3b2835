import { ComplianceWorld, complianceWorld, fieldsOf } from './compliance-support';

/** /api/outages over HTTP: CRUD with soft delete, numbering, listings, moves, roles, audit and events. */
describe('outages', () => {
  let w: ComplianceWorld;
  let unitId: number;

  const create = async (body: Record<string, unknown> = {}, who: 'admin' | 'operator' = 'admin') => {
    const res = await w
      .api(who, 'post', '/api/outages')
      .send({ title: 'Outage', outageType: 'PLANNED', ...body });
    expect(res.status).toBe(201);
    return res.body.data;
  };

  beforeAll(async () => {
    w = await complianceWorld();
    unitId = (await w.api('admin', 'post', '/api/units').send({ name: 'GT-1', capacityMw: 250 }).expect(201))
      .body.data.id;
  });
  afterAll(async () => {
    await w?.close();
  });

  it('creates an ACTIVE, PENDING outage numbered OUT-…, with ids for references and UTC datetimes', async () => {
    const outage = await create({
      title: 'Hot gas path inspection',
      unitId,
      plannedStart: '2026-12-01T06:00:00',
      plannedEnd: '2026-12-05T18:00:00+02:00',
      capacityMw: 250.5,
      lostCapacityMw: 120.125,
      estimatedCost: 150000.5,
    });
    expect(outage).toMatchObject({
      status: 'ACTIVE',
      approvalStatus: 'PENDING',
      outageType: 'PLANNED',
      unitId,
      workOrderId: null,
      failureId: null,
      requestedById: w.userIds.admin,
      approvedById: null,
      companyId: w.companyId,
      plannedStart: '2026-12-01T06:00:00.000Z',
      plannedEnd: '2026-12-05T16:00:00.000Z',
      capacityMw: 250.5,
      lostCapacityMw: 120.125,
      estimatedCost: 150000.5,
    });
    expect(outage.outageNumber).toMatch(/^OUT-\d+$/);
    expect(outage).not.toHaveProperty('deletedAt');
    const got = await w.api('viewer', 'get', `/api/outages/${outage.id}`).expect(200);
    expect(got.body).toEqual({ data: outage });
  });

  it('refuses bad bodies with VALIDATION_ERROR naming the fields', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ title: '', outageType: 'SOMETIMES' }, ['title', 'outageType']],
      [{ title: 'x'.repeat(256), outageType: 'FORCED' }, ['title']],
      [{ title: 'x', outageType: 'FORCED', status: 'COMPLETED' }, ['status']],
      [
        { title: 'x', outageType: 'FORCED', outageNumber: 'OUT-1', approvalStatus: 'APPROVED' },
        ['outageNumber', 'approvalStatus'],
      ],
      [
        { title: 'x', outageType: 'FORCED', capacityMw: 1.0001, actualCost: 2.005 },
        ['capacityMw', 'actualCost'],
      ],
      [
        { title: 'x', outageType: 'FORCED', plannedStart: '2026-12-02', plannedEnd: '2026-12-01' },
        ['plannedEnd'],
      ],
      [{ title: 'x', outageType: 'FORCED', capacityMw: 100, lostCapacityMw: 100.5 }, ['lostCapacityMw']],
      [{ title: 'x', outageType: 'FORCED', plannedStart: 'soon' }, ['plannedStart']],
    ];
    for (const [body, fields] of cases) {
      const res = await w.api('admin', 'post', '/api/outages').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res)).toEqual(expect.arrayContaining(fields));
    }
  });

  it('never repeats an outageNumber under concurrent creation', async () => {
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        w.api('operator', 'post', '/api/outages').send({ title: `Concurrent ${i}`, outageType: 'FORCED' }),
      ),
    );
    expect(made.map((r) => r.status)).toEqual(Array(20).fill(201));
    const numbers = made.map((r) => r.body.data.outageNumber);
    expect(new Set(numbers).size).toBe(20);
  });

  it('pages, sorts by any field (unknown 400), filters and counts', async () => {
    const sortUnit = (await w.api('admin', 'post', '/api/units').send({ name: 'Sorted' }).expect(201)).body
      .data.id;
    for (const [title, day] of [
      ['B', '03'],
      ['C', '01'],
      ['A', '02'],
    ]) {
      await create({ title, unitId: sortUnit, plannedStart: `2027-01-${day}T00:00:00Z` });
    }
    const byUnit = await w.api('viewer', 'get', `/api/outages/unit/${sortUnit}`).expect(200);
    expect(byUnit.body.data.map((o: { title: string }) => o.title)).toEqual(['A', 'C', 'B']);
    expect(byUnit.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 3 });

    const byDate = await w
      .api('viewer', 'get', '/api/outages')
      .query({ sort: 'plannedStart', order: 'ASC', pageSize: 2, outageType: 'PLANNED' })
      .expect(200);
    const dates = byDate.body.data.map((o: { plannedStart: string | null }) => o.plannedStart);
    expect(dates[0] <= dates[1]).toBe(true);

    const all = await w.api('viewer', 'get', '/api/outages').query({ pageSize: 100 }).expect(200);
    const ids = all.body.data.map((o: { id: number }) => o.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const count = await w.api('viewer', 'get', '/api/outages/count').expect(200);
    expect(count.body).toEqual({ data: { count: all.body.meta.pagination.total } });

    for (const [query, field] of [
      [{ sort: 'deletedAt' }, 'sort'],
      [{ sort: 'planned_start' }, 'sort'],
      [{ order: 'up' }, 'order'],
      [{ pageSize: 101 }, 'pageSize'],
      [{ page: 0 }, 'page'],
      [{ status: 'DONE' }, 'status'],
    ] as const) {
      const res = await w.api('viewer', 'get', '/api/outages').query(query);
      expect(res.status).toBe(400);
      expect(fieldsOf(res)).toContain(field);
    }
    expect((await w.api('viewer', 'get', '/api/outages/active').query({ pageSize: 101 })).status).toBe(400);
  });

  it('lists ACTIVE outages by actual start, latest first and not started last', async () => {
    const early = await create({ title: 'Early', outageType: 'FORCED', actualStart: '2020-01-01T00:00:00Z' });
    const late = await create({ title: 'Late', outageType: 'FORCED', actualStart: '2099-01-01T00:00:00Z' });
    const done = await create({ title: 'Done', outageType: 'FORCED', actualStart: '2098-01-01T00:00:00Z' });
    await w.api('operator', 'post', `/api/outages/${done.id}/cancel`).expect(200);
    const active = await w.api('viewer', 'get', '/api/outages/active').query({ pageSize: 100 }).expect(200);
    const ids = active.body.data.map((o: { id: number }) => o.id);
    expect(ids[0]).toBe(late.id);
    expect(ids).not.toContain(done.id);
    expect(ids.indexOf(early.id)).toBeLessThan(
      ids.findIndex((id: number) => id !== late.id && id !== early.id),
    );
    expect(active.body.data.every((o: { status: string }) => o.status === 'ACTIVE')).toBe(true);
    const started = active.body.data.filter((o: { actualStart: string | null }) => o.actualStart);
    expect(active.body.data.slice(0, started.length)).toEqual(started);
  });

  it('completes and cancels only ACTIVE outages; PUT only while ACTIVE; 409 INVALID_TRANSITION otherwise', async () => {
    const outage = await create({ outageType: 'FORCED' });
    const done = await w
      .api('operator', 'post', `/api/outages/${outage.id}/complete`)
      .send({ completionNotes: 'Back in service' })
      .expect(200);
    expect(Object.keys(done.body).sort()).toEqual(['data', 'message']);
    expect(Object.keys(done.body.data).sort()).toEqual(['actualEnd', 'id', 'status']);
    expect(done.body.data).toMatchObject({ id: outage.id, status: 'COMPLETED' });
    expect(Date.now() - Date.parse(done.body.data.actualEnd)).toBeLessThan(60000);
    expect(typeof done.body.message).toBe('string');
    const got = await w.api('viewer', 'get', `/api/outages/${outage.id}`).expect(200);
    expect(got.body.data.completionNotes).toBe('Back in service');

    for (const move of ['complete', 'cancel']) {
      const again = await w.api('admin', 'post', `/api/outages/${outage.id}/${move}`);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('INVALID_TRANSITION');
    }
    const edit = await w.api('admin', 'put', `/api/outages/${outage.id}`).send({ title: 'Late edit' });
    expect(edit.status).toBe(409);
    expect(edit.body.error.code).toBe('INVALID_TRANSITION');

    const other = await create({ outageType: 'FORCED' });
    const cancelled = await w.api('operator', 'post', `/api/outages/${other.id}/cancel`).expect(200);
    expect(cancelled.body.data).toMatchObject({ id: other.id, status: 'CANCELLED' });
    expect((await w.api('operator', 'post', `/api/outages/${other.id}/complete`)).status).toBe(409);
  });

  it('approves and rejects PENDING planned outages, MANAGER and above only', async () => {
    const planned = await create();
    expect((await w.api('operator', 'post', `/api/outages/${planned.id}/approve`)).status).toBe(403);
    expect((await w.api('viewer', 'post', `/api/outages/${planned.id}/approve`)).status).toBe(403);
    const approved = await w
      .api('manager', 'post', `/api/outages/${planned.id}/approve`)
      .send({ approvalNotes: 'Fits the window' })
      .expect(200);
    expect(approved.body.data).toMatchObject({
      approvalStatus: 'APPROVED',
      approvedById: w.userIds.manager,
      approvalNotes: 'Fits the window',
      status: 'ACTIVE',
    });
    expect(approved.body.data.approvalDate).toEqual(expect.any(String));
    for (const move of ['approve', 'reject']) {
      const again = await w.api('admin', 'post', `/api/outages/${planned.id}/${move}`).send({});
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('INVALID_TRANSITION');
    }

    const forced = await create({ outageType: 'FORCED' });
    const notPlanned = await w.api('manager', 'post', `/api/outages/${forced.id}/approve`).send({});
    expect(notPlanned.status).toBe(409);

    const other = await create();
    const rejected = await w
      .api('admin', 'post', `/api/outages/${other.id}/reject`)
      .send({ approvalNotes: 'Grid constraint' })
      .expect(200);
    expect(rejected.body.data).toMatchObject({
      approvalStatus: 'REJECTED',
      approvedById: w.userIds.admin,
      approvalNotes: 'Grid constraint',
    });
    const unknown = await w.api('manager', 'post', `/api/outages/${other.id}/approve`).send({ notes: 'x' });
    expect(unknown.status).toBe(400);
  });

  it('updates the given fields only; null for a required one is 400', async () => {
    const outage = await create({ description: 'Keep me', unitId });
    const updated = await w
      .api('operator', 'put', `/api/outages/${outage.id}`)
      .send({ title: 'Renamed', unitId: null, actualStart: '2026-12-01T07:00:00Z' })
      .expect(200);
    expect(updated.body.data).toMatchObject({
      title: 'Renamed',
      description: 'Keep me',
      unitId: null,
      actualStart: '2026-12-01T07:00:00.000Z',
      outageNumber: outage.outageNumber,
    });
    const nulled = await w
      .api('admin', 'put', `/api/outages/${outage.id}`)
      .send({ title: null, outageType: null });
    expect(nulled.status).toBe(400);
    expect(fieldsOf(nulled)).toEqual(['title', 'outageType']);
    const status = await w.api('admin', 'put', `/api/outages/${outage.id}`).send({ status: 'COMPLETED' });
    expect(status.status).toBe(400);
  });

  it('soft-deletes: the outage leaves every read and count; OPERATOR and VIEWER may not delete', async () => {
    const delUnit = (await w.api('admin', 'post', '/api/units').send({ name: 'Deleted' }).expect(201)).body
      .data.id;
    const outage = await create({
      unitId: delUnit,
      outageType: 'FORCED',
      actualStart: '2099-06-01T00:00:00Z',
    });
    const before = (await w.api('viewer', 'get', '/api/outages/count').expect(200)).body.data.count;
    expect((await w.api('operator', 'delete', `/api/outages/${outage.id}`)).status).toBe(403);
    expect((await w.api('viewer', 'delete', `/api/outages/${outage.id}`)).status).toBe(403);
    await w.api('manager', 'delete', `/api/outages/${outage.id}`).expect(204);

    expect((await w.api('admin', 'get', `/api/outages/${outage.id}`)).status).toBe(404);
    expect((await w.api('admin', 'put', `/api/outages/${outage.id}`).send({ title: 'x' })).status).toBe(404);
    expect((await w.api('admin', 'post', `/api/outages/${outage.id}/cancel`)).status).toBe(404);
    expect((await w.api('admin', 'delete', `/api/outages/${outage.id}`)).status).toBe(404);
    expect((await w.api('viewer', 'get', '/api/outages/count').expect(200)).body.data.count).toBe(before - 1);
    const lists = [
      '/api/outages?pageSize=100',
      '/api/outages/active?pageSize=100',
      `/api/outages/unit/${delUnit}`,
    ];
    for (const path of lists) {
      const res = await w.api('admin', 'get', path).expect(200);
      expect(res.body.data.map((o: { id: number }) => o.id)).not.toContain(outage.id);
    }
    const trail = await w
      .api('admin', 'get', `/compliance/audit/entity/OutageEvent/${outage.id}`)
      .expect(200);
    expect(trail.body.data.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['DELETE', 'CREATE']),
    );
    const [deleted] = await w.events('outage.deleted', outage.id);
    expect(deleted.body.data.attributes).toMatchObject({ id: outage.id, outageNumber: outage.outageNumber });
  });

  it("keeps other companies' outages (404) and references (400 naming the field) out of reach", async () => {
    const outage = await create({ unitId });
    expect((await w.api('far', 'get', `/api/outages/${outage.id}`)).status).toBe(404);
    expect((await w.api('far', 'put', `/api/outages/${outage.id}`).send({ title: 'x' })).status).toBe(404);
    expect((await w.api('far', 'post', `/api/outages/${outage.id}/approve`).send({})).status).toBe(404);
    expect((await w.api('far', 'delete', `/api/outages/${outage.id}`)).status).toBe(404);
    expect((await w.api('far', 'get', `/api/outages/unit/${unitId}`)).status).toBe(404);
    expect((await w.api('far', 'get', '/api/outages/count').expect(200)).body.data.count).toBe(0);
    expect((await w.api('far', 'get', '/api/outages').expect(200)).body.data).toEqual([]);

    const order = await w.api('admin', 'post', '/api/work-orders').send({ title: 'WO', unitId }).expect(201);
    const failure = await w.api('admin', 'post', '/api/failures').send({ title: 'F', unitId }).expect(201);
    const foreign = await w.api('far', 'post', '/api/outages').send({
      title: 'x',
      outageType: 'FORCED',
      unitId,
      workOrderId: order.body.data.id,
      failureId: failure.body.data.id,
    });
    expect(foreign.status).toBe(400);
    expect(fieldsOf(foreign)).toEqual(['unitId']);
    for (const field of ['workOrderId', 'failureId', 'requestedById']) {
      const value =
        field === 'workOrderId'
          ? order.body.data.id
          : field === 'failureId'
            ? failure.body.data.id
            : w.userIds.admin;
      const res = await w
        .api('far', 'post', '/api/outages')
        .send({ title: 'x', outageType: 'FORCED', [field]: value });
      expect(res.status).toBe(400);
      expect(fieldsOf(res)).toEqual([field]);
    }
    const own = await w.api('operator', 'post', '/api/outages').send({
      title: 'Linked',
      outageType: 'FORCED',
      unitId,
      workOrderId: order.body.data.id,
      failureId: failure.body.data.id,
      requestedById: w.userIds.manager,
    });
    expect(own.status).toBe(201);
    expect(own.body.data).toMatchObject({
      workOrderId: order.body.data.id,
      requestedById: w.userIds.manager,
    });
    expect(
      (await w.api('viewer', 'post', '/api/outages').send({ title: 'x', outageType: 'FORCED' })).status,
    ).toBe(403);
  });

  it('audits every change with its diff and sends the catalogue events with the units payload shape', async () => {
    const outage = await create({ title: 'Audited', outageType: 'PLANNED' });
    await w.api('admin', 'put', `/api/outages/${outage.id}`).send({ title: 'Audited again' }).expect(200);
    await w.api('manager', 'post', `/api/outages/${outage.id}/approve`).send({}).expect(200);
    await w.api('admin', 'post', `/api/outages/${outage.id}/complete`).send({}).expect(200);

    const trail = await w
      .api('admin', 'get', `/compliance/audit/entity/OutageEvent/${outage.id}`)
      .expect(200);
    const entries = trail.body.data as {
      action: string;
      changes: Record<string, { old: unknown; new: unknown }>;
    }[];
    expect(entries.map((e) => e.action)).toEqual(['UPDATE', 'UPDATE', 'UPDATE', 'CREATE']);
    expect(entries[3].changes.title).toEqual({ old: null, new: 'Audited' });
    expect(entries[2].changes.title).toEqual({ old: 'Audited', new: 'Audited again' });
    expect(entries[1].changes.approvalStatus).toEqual({ old: 'PENDING', new: 'APPROVED' });
    expect(entries[0].changes.status).toEqual({ old: 'ACTIVE', new: 'COMPLETED' });

    const [created] = await w.events('outage.created', outage.id);
    expect(created.body).toMatchObject({
      event: 'outage.created',
      data: {
        id: outage.id,
        type: 'OutageEvent',
        attributes: expect.objectContaining({ title: 'Audited', outageNumber: outage.outageNumber }),
        previous: null,
      },
    });
    const [updated] = await w.events('outage.updated', outage.id);
    expect(updated.body.data.previous).toEqual({ title: 'Audited' });
    const [approved] = await w.events('outage.approved', outage.id);
    expect(approved.body.data.previous).toMatchObject({ approvalStatus: 'PENDING' });
    const [completed] = await w.events('outage.completed', outage.id);
    expect(completed.body.data.attributes.status).toBe('COMPLETED');
    const rejectedOutage = await create();
    await w.api('manager', 'post', `/api/outages/${rejectedOutage.id}/reject`).send({}).expect(200);
    expect(await w.events('outage.rejected', rejectedOutage.id)).toHaveLength(1);
  });

  it('numbers outages in a sandbox with copied data after the copied ones; they stay out of production', async () => {
    const last = await create({ outageType: 'FORCED' });
    await w.api('admin', 'post', '/sandboxes').send({ name: 'outs', copyData: true }).expect(201);
    const countBefore = (await w.api('admin', 'get', '/api/outages/count')).body.data.count;
    const inSandbox = await w
      .api('admin', 'post', '/api/outages')
      .set('X-Tenant-ID', 'sandbox_outs')
      .send({ title: 'Sandbox outage', outageType: 'FORCED' });
    expect(inSandbox.status).toBe(201);
    const number = (n: string) => Number(n.replace('OUT-', ''));
    expect(number(inSandbox.body.data.outageNumber)).toBeGreaterThan(number(last.outageNumber));
    const copied = await w.api('admin', 'get', `/api/outages/${last.id}`).set('X-Tenant-ID', 'sandbox_outs');
    expect(copied.body.data.outageNumber).toBe(last.outageNumber);
    expect((await w.api('admin', 'get', '/api/outages/count')).body.data.count).toBe(countBefore);
    const gone = await w.api('admin', 'get', `/api/outages/${inSandbox.body.data.id}`);
    expect(gone.status).toBe(404);
  });
});
