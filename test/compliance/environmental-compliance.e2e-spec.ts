import { ComplianceDailyJobs } from '../../src/environmental-compliance/daily/compliance-daily-jobs';
import { ComplianceDailyScheduler } from '../../src/environmental-compliance/daily/compliance-daily.scheduler';
import { ComplianceWorld, complianceWorld, fieldsOf } from './compliance-support';

const DAY = 86_400_000;
const inDays = (days: number, from = Date.now()) => new Date(from + days * DAY).toISOString();
let sequence = 0;

/** Permits, obligations and submissions over HTTP, their workflows, roles, audit, events and the daily job. */
describe('environmental compliance', () => {
  let w: ComplianceWorld;

  const permit = async (body: Record<string, unknown> = {}) => {
    const res = await w.api('admin', 'post', '/api/permits').send({
      permitNumber: `P-${++sequence}`,
      title: `Permit ${sequence}`,
      permitType: 'AIR',
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.data;
  };
  const obligation = async (permitId: number, body: Record<string, unknown> = {}) => {
    const res = await w.api('operator', 'post', '/api/compliance-obligations').send({
      permitId,
      title: `Obligation ${++sequence}`,
      obligationType: 'REPORTING',
      frequency: 'ONE_TIME',
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.data;
  };
  const submission = async (obligationId: number, body: Record<string, unknown> = {}) => {
    const res = await w
      .api('operator', 'post', '/api/compliance-submissions')
      .send({ obligationId, title: `Submission ${++sequence}`, ...body });
    expect(res.status).toBe(201);
    return res.body.data;
  };
  const moveSubmission = (who: 'operator' | 'manager' | 'admin', id: number, move: string, body = {}) =>
    w.api(who, 'post', `/api/compliance-submissions/${id}/${move}`).send(body);

  beforeAll(async () => {
    w = await complianceWorld();
  });
  afterAll(async () => {
    await w?.close();
  });

  describe('permits', () => {
    it('creates, reads, updates (partially) and deletes, with permitNumber unique (409)', async () => {
      const created = await permit({
        title: 'Stack emissions',
        issueDate: '2025-01-01',
        expiryDate: '2030-01-01T00:00:00',
        permitFee: 1200.5,
        authorityEmail: 'permits@agency.example',
      });
      expect(created).toMatchObject({
        status: 'ACTIVE',
        permitType: 'AIR',
        unitId: null,
        companyId: w.companyId,
        issueDate: '2025-01-01T00:00:00.000Z',
        expiryDate: '2030-01-01T00:00:00.000Z',
        permitFee: 1200.5,
      });
      expect(created).not.toHaveProperty('expiryNoticeDays');
      const taken = await w.api('admin', 'post', '/api/permits').send({
        permitNumber: created.permitNumber,
        title: 'Copy',
        permitType: 'WATER',
      });
      expect(taken.status).toBe(409);
      expect(taken.body.error.code).toBe('CONFLICT');

      const updated = await w
        .api('operator', 'put', `/api/permits/${created.id}`)
        .send({ status: 'SUSPENDED', notes: 'Under inspection' })
        .expect(200);
      expect(updated.body.data).toMatchObject({
        status: 'SUSPENDED',
        notes: 'Under inspection',
        title: 'Stack emissions',
      });
      const changed = await w.events('permit.status_changed', created.id);
      expect(changed[0].body.data.previous).toEqual({ status: 'ACTIVE' });
      expect((await w.api('viewer', 'get', `/api/permits/${created.id}`).expect(200)).body.data.status).toBe(
        'SUSPENDED',
      );
      expect((await w.api('operator', 'delete', `/api/permits/${created.id}`)).status).toBe(403);
      await w.api('manager', 'delete', `/api/permits/${created.id}`).expect(204);
      expect((await w.api('admin', 'get', `/api/permits/${created.id}`)).status).toBe(404);
      expect(await w.events('permit.deleted', created.id)).toHaveLength(1);
    });

    it('validates bodies: required fields, enums, dates in order, money decimals, unknown fields', async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['permitNumber', 'title', 'permitType']],
        [{ permitNumber: 'X1', title: 'x', permitType: 'SOIL', status: 'GONE' }, ['permitType', 'status']],
        [
          {
            permitNumber: 'X2',
            title: 'x',
            permitType: 'AIR',
            issueDate: '2026-02-01',
            expiryDate: '2026-01-01',
          },
          ['expiryDate'],
        ],
        [{ permitNumber: 'X3', title: 'x', permitType: 'AIR', annualFee: 1.234 }, ['annualFee']],
        [{ permitNumber: 'X4', title: 'x', permitType: 'AIR', companyId: 1 }, ['companyId']],
      ];
      for (const [body, fields] of cases) {
        const res = await w.api('admin', 'post', '/api/permits').send(body);
        expect(res.status).toBe(400);
        expect(fieldsOf(res)).toEqual(expect.arrayContaining(fields));
      }
      const created = await permit();
      const nulled = await w.api('admin', 'put', `/api/permits/${created.id}`).send({ title: null });
      expect(fieldsOf(nulled)).toEqual(['title']);
    });

    it('lists expiring ACTIVE permits within daysAhead, by status, pages, sorts and counts', async () => {
      const soon = await permit({ expiryDate: inDays(10) });
      const later = await permit({ expiryDate: inDays(60) });
      const far = await permit({ expiryDate: inDays(200) });
      const suspended = await permit({ expiryDate: inDays(5), status: 'SUSPENDED' });
      const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((p) => p.id);

      const byDefault = await w.api('viewer', 'get', '/api/permits/expiring').expect(200);
      expect(ids(byDefault)).toEqual(expect.arrayContaining([soon.id, later.id]));
      expect(ids(byDefault)).not.toEqual(expect.arrayContaining([far.id]));
      expect(ids(byDefault)).not.toContain(suspended.id);
      expect(ids(byDefault).indexOf(soon.id)).toBeLessThan(ids(byDefault).indexOf(later.id));
      const narrow = await w
        .api('viewer', 'get', '/api/permits/expiring')
        .query({ daysAhead: 30 })
        .expect(200);
      expect(ids(narrow)).toContain(soon.id);
      expect(ids(narrow)).not.toContain(later.id);
      for (const daysAhead of [0, 3651, 'soon']) {
        const res = await w.api('viewer', 'get', '/api/permits/expiring').query({ daysAhead });
        expect(res.status).toBe(400);
        expect(new Set(fieldsOf(res))).toEqual(new Set(['daysAhead']));
      }

      const bySuspended = await w
        .api('viewer', 'get', '/api/permits/by-status')
        .query({ status: 'SUSPENDED' });
      expect(ids(bySuspended)).toContain(suspended.id);
      expect(bySuspended.body.data.every((p: { status: string }) => p.status === 'SUSPENDED')).toBe(true);
      for (const query of [{}, { status: 'LOST' }]) {
        const res = await w.api('viewer', 'get', '/api/permits/by-status').query(query);
        expect(res.status).toBe(400);
        expect(new Set(fieldsOf(res))).toEqual(new Set(['status']));
      }

      const sorted = await w
        .api('viewer', 'get', '/api/permits')
        .query({ sort: 'expiryDate', order: 'DESC', pageSize: 2, page: 1 })
        .expect(200);
      expect(sorted.body.meta.pagination).toMatchObject({ page: 1, pageSize: 2 });
      const all = await w.api('viewer', 'get', '/api/permits').query({ pageSize: 100 }).expect(200);
      const count = await w.api('viewer', 'get', '/api/permits/count').expect(200);
      expect(count.body).toEqual({ data: { count: all.body.meta.pagination.total } });
      expect((await w.api('viewer', 'get', '/api/permits').query({ sort: 'expiryNoticeDays' })).status).toBe(
        400,
      );
    });

    it("keeps other companies' permits (404) and units (400 naming unitId) out of reach", async () => {
      const unit = await w.api('admin', 'post', '/api/units').send({ name: 'Boiler' }).expect(201);
      const own = await permit({ unitId: unit.body.data.id });
      expect(own.unitId).toBe(unit.body.data.id);
      expect((await w.api('far', 'get', `/api/permits/${own.id}`)).status).toBe(404);
      expect((await w.api('far', 'put', `/api/permits/${own.id}`).send({ title: 'x' })).status).toBe(404);
      expect((await w.api('far', 'delete', `/api/permits/${own.id}`)).status).toBe(404);
      expect((await w.api('far', 'get', '/api/permits/count')).body.data.count).toBe(0);
      const res = await w
        .api('far', 'post', '/api/permits')
        .send({ permitNumber: 'FAR-1', title: 'x', permitType: 'AIR', unitId: unit.body.data.id });
      expect(res.status).toBe(400);
      expect(fieldsOf(res)).toEqual(['unitId']);
      expect(
        (
          await w
            .api('viewer', 'post', '/api/permits')
            .send({ permitNumber: 'V-1', title: 'x', permitType: 'AIR' })
        ).status,
      ).toBe(403);
    });
  });

  describe('obligations', () => {
    it('creates with references in reach, lists by permit, refuses deleting a permit that has some', async () => {
      const p = await permit();
      const o = await obligation(p.id, { responsibleUserId: w.userIds.operator, nextDueDate: inDays(3) });
      expect(o).toMatchObject({ permitId: p.id, responsibleUserId: w.userIds.operator, status: 'ACTIVE' });
      const listed = await w.api('viewer', 'get', `/api/compliance-obligations/permit/${p.id}`).expect(200);
      expect(listed.body.data.map((x: { id: number }) => x.id)).toEqual([o.id]);
      expect((await w.api('far', 'get', `/api/compliance-obligations/permit/${p.id}`)).status).toBe(404);
      expect((await w.api('far', 'get', `/api/compliance-obligations/${o.id}`)).status).toBe(404);

      const deleting = await w.api('admin', 'delete', `/api/permits/${p.id}`);
      expect(deleting.status).toBe(409);
      expect((await w.api('admin', 'get', `/api/permits/${p.id}`)).status).toBe(200);

      for (const [body, field] of [
        [{ permitId: p.id }, 'permitId'],
        [{ permitId: 999999 }, 'permitId'],
      ] as const) {
        const res = await w.api('far', 'post', '/api/compliance-obligations').send({
          title: 'x',
          obligationType: 'FILING',
          frequency: 'ANNUAL',
          ...body,
        });
        expect(res.status).toBe(400);
        expect(fieldsOf(res)).toEqual([field]);
      }
      const foreignUser = await w.api('operator', 'post', '/api/compliance-obligations').send({
        permitId: p.id,
        title: 'x',
        obligationType: 'FILING',
        frequency: 'ANNUAL',
        responsibleUserId: w.userIds.far,
      });
      expect(fieldsOf(foreignUser)).toEqual(['responsibleUserId']);
      const missing = await w.api('operator', 'post', '/api/compliance-obligations').send({ title: 'x' });
      expect(fieldsOf(missing)).toEqual(expect.arrayContaining(['permitId', 'obligationType', 'frequency']));
    });

    it('lists overdue (ACTIVE or OVERDUE, past due) and upcoming (ACTIVE within daysAhead)', async () => {
      const p = await permit();
      const past = await obligation(p.id, { nextDueDate: inDays(-2) });
      const waived = await obligation(p.id, { nextDueDate: inDays(-2), status: 'WAIVED' });
      const soon = await obligation(p.id, { nextDueDate: inDays(5) });
      const later = await obligation(p.id, { nextDueDate: inDays(45) });
      const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((x) => x.id);
      const overdue = await w.api('viewer', 'get', '/api/compliance-obligations/overdue').expect(200);
      expect(ids(overdue)).toContain(past.id);
      expect(ids(overdue)).not.toEqual(expect.arrayContaining([waived.id]));
      expect(ids(overdue)).not.toContain(soon.id);
      const upcoming = await w.api('viewer', 'get', '/api/compliance-obligations/upcoming').expect(200);
      expect(ids(upcoming)).toContain(soon.id);
      expect(ids(upcoming)).not.toContain(later.id);
      expect(ids(upcoming)).not.toContain(past.id);
      const wide = await w
        .api('viewer', 'get', '/api/compliance-obligations/upcoming')
        .query({ daysAhead: 60 });
      expect(ids(wide)).toEqual(expect.arrayContaining([soon.id, later.id]));
      const count = await w.api('viewer', 'get', '/api/compliance-obligations/count').expect(200);
      expect(count.body.data.count).toBeGreaterThanOrEqual(4);
      expect(
        (await w.api('viewer', 'get', '/api/compliance-obligations').query({ sort: 'nope' })).status,
      ).toBe(400);
    });

    it('completes: ONE_TIME → COMPLETED, recurring moves its due date forward; COMPLETED or WAIVED is 409', async () => {
      const p = await permit();
      const once = await obligation(p.id);
      const done = await w
        .api('operator', 'post', `/api/compliance-obligations/${once.id}/complete`)
        .expect(200);
      expect(done.body.data).toMatchObject({ status: 'COMPLETED', lastCompletedDate: expect.any(String) });
      const again = await w.api('operator', 'post', `/api/compliance-obligations/${once.id}/complete`);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('INVALID_TRANSITION');
      expect(await w.events('obligation.completed', once.id)).toHaveLength(1);

      const monthly = await obligation(p.id, { frequency: 'MONTHLY', nextDueDate: '2026-01-31T09:00:00Z' });
      const moved = await w
        .api('admin', 'post', `/api/compliance-obligations/${monthly.id}/complete`)
        .expect(200);
      expect(moved.body.data.status).toBe('ACTIVE');
      const next = Date.parse(moved.body.data.nextDueDate);
      expect(next).toBeGreaterThan(Date.now());
      expect(next).toBeLessThanOrEqual(Date.now() + 32 * DAY);
      expect(moved.body.data.nextDueDate).toMatch(/T09:00:00\.000Z$/);

      const waived = await obligation(p.id, { status: 'WAIVED' });
      expect((await w.api('admin', 'post', `/api/compliance-obligations/${waived.id}/complete`)).status).toBe(
        409,
      );
      expect(
        (await w.api('viewer', 'post', `/api/compliance-obligations/${waived.id}/complete`)).status,
      ).toBe(403);
      expect((await w.api('operator', 'delete', `/api/compliance-obligations/${waived.id}`)).status).toBe(
        403,
      );
      await w.api('manager', 'delete', `/api/compliance-obligations/${waived.id}`).expect(204);
    });
  });

  describe('submissions', () => {
    it('runs the review workflow with its roles, stamps, audit and events; other moves answer 409', async () => {
      const p = await permit();
      const o = await obligation(p.id);
      const s = await submission(o.id, { periodStart: '2026-10-01', periodEnd: '2026-12-31' });
      expect(s).toMatchObject({
        status: 'DRAFT',
        obligationId: o.id,
        submittedById: null,
        companyId: w.companyId,
      });

      for (const move of ['review', 'approve', 'request-revision']) {
        const res = await moveSubmission('manager', s.id, move);
        expect(res.status).toBe(409);
        expect(res.body.error.code).toBe('INVALID_TRANSITION');
      }
      await w
        .api('operator', 'put', `/api/compliance-submissions/${s.id}`)
        .send({ notes: 'Draft notes' })
        .expect(200);
      const submitted = await moveSubmission('operator', s.id, 'submit').expect(200);
      expect(submitted.body.data).toMatchObject({ status: 'SUBMITTED', submittedById: w.userIds.operator });
      expect(submitted.body.data.submittedDate).toEqual(expect.any(String));
      const locked = await w
        .api('operator', 'put', `/api/compliance-submissions/${s.id}`)
        .send({ notes: 'x' });
      expect(locked.status).toBe(409);

      expect((await moveSubmission('operator', s.id, 'review')).status).toBe(403);
      const reviewed = await moveSubmission('manager', s.id, 'review', {
        reviewNotes: 'Looks complete',
      }).expect(200);
      expect(reviewed.body.data).toMatchObject({
        status: 'UNDER_REVIEW',
        reviewedById: w.userIds.manager,
        reviewNotes: 'Looks complete',
      });
      const revision = await moveSubmission('manager', s.id, 'request-revision', {
        reviewNotes: 'Add Q4 stack data',
      });
      expect(revision.body.data).toMatchObject({
        status: 'REVISION_REQUIRED',
        reviewNotes: 'Add Q4 stack data',
      });
      await w
        .api('operator', 'put', `/api/compliance-submissions/${s.id}`)
        .send({ submissionData: 'v2' })
        .expect(200);
      await moveSubmission('operator', s.id, 'submit').expect(200);
      await moveSubmission('manager', s.id, 'review').expect(200);
      expect((await moveSubmission('operator', s.id, 'approve')).status).toBe(403);
      const approved = await moveSubmission('manager', s.id, 'approve').expect(200);
      expect(approved.body.data).toMatchObject({ status: 'APPROVED', approvalDate: expect.any(String) });
      const obligationAfter = await w.api('viewer', 'get', `/api/compliance-obligations/${o.id}`).expect(200);
      expect(obligationAfter.body.data.status).toBe('COMPLETED');
      expect((await moveSubmission('manager', s.id, 'reject', { rejectionReason: 'x' })).status).toBe(409);
      expect((await moveSubmission('admin', s.id, 'submit')).status).toBe(409);

      const changes = await w.events('submission.status_changed', s.id, 6);
      const pairs = changes.map((r) => [
        r.body.data.attributes.previousStatus,
        r.body.data.attributes.status,
      ]);
      expect(pairs).toEqual([
        ['DRAFT', 'SUBMITTED'],
        ['SUBMITTED', 'UNDER_REVIEW'],
        ['UNDER_REVIEW', 'REVISION_REQUIRED'],
        ['REVISION_REQUIRED', 'SUBMITTED'],
        ['SUBMITTED', 'UNDER_REVIEW'],
        ['UNDER_REVIEW', 'APPROVED'],
      ]);
      expect(await w.events('submission.approved', s.id)).toHaveLength(1);
      expect(await w.events('obligation.completed', o.id)).toHaveLength(1);

      const trail = await w
        .api('admin', 'get', `/compliance/audit/entity/ComplianceSubmission/${s.id}`)
        .expect(200);
      const entries = trail.body.data as {
        action: string;
        changes: Record<string, { old: unknown; new: unknown }>;
      }[];
      expect(entries[0]).toMatchObject({
        action: 'UPDATE',
        changes: { status: { old: 'UNDER_REVIEW', new: 'APPROVED' } },
      });
      expect(entries[entries.length - 1].action).toBe('CREATE');
      const obligationTrail = await w
        .api('admin', 'get', `/compliance/audit/entity/ComplianceObligation/${o.id}`)
        .expect(200);
      expect(obligationTrail.body.data[0].changes.status).toEqual({ old: 'ACTIVE', new: 'COMPLETED' });
    });

    it('rejects with a required reason; references and records of other companies are out of reach', async () => {
      const p = await permit();
      const o = await obligation(p.id);
      const s = await submission(o.id);
      await moveSubmission('operator', s.id, 'submit').expect(200);
      await moveSubmission('admin', s.id, 'review').expect(200);
      const noReason = await moveSubmission('manager', s.id, 'reject');
      expect(noReason.status).toBe(400);
      expect(new Set(fieldsOf(noReason))).toEqual(new Set(['rejectionReason']));
      const rejected = await moveSubmission('manager', s.id, 'reject', {
        rejectionReason: 'Wrong period',
      }).expect(200);
      expect(rejected.body.data).toMatchObject({ status: 'REJECTED', rejectionReason: 'Wrong period' });
      expect(await w.events('submission.rejected', s.id)).toHaveLength(1);

      expect((await w.api('far', 'get', `/api/compliance-submissions/${s.id}`)).status).toBe(404);
      expect((await moveSubmission('manager', s.id, 'submit')).status).toBe(409);
      const foreign = await w
        .api('far', 'post', '/api/compliance-submissions')
        .send({ obligationId: o.id, title: 'x' });
      expect(foreign.status).toBe(400);
      expect(fieldsOf(foreign)).toEqual(['obligationId']);
      const status = await w
        .api('operator', 'post', '/api/compliance-submissions')
        .send({ obligationId: o.id, title: 'x', status: 'APPROVED' });
      expect(fieldsOf(status)).toEqual(['status']);
      const period = await w
        .api('operator', 'post', '/api/compliance-submissions')
        .send({ obligationId: o.id, title: 'x', periodStart: '2026-02-01', periodEnd: '2026-01-01' });
      expect(fieldsOf(period)).toEqual(['periodEnd']);

      const listed = await w
        .api('viewer', 'get', '/api/compliance-submissions')
        .query({ obligationId: o.id });
      expect(listed.body.data.map((x: { id: number }) => x.id)).toEqual([s.id]);
      const count = await w.api('viewer', 'get', '/api/compliance-submissions/count').expect(200);
      expect(count.body.data.count).toBeGreaterThanOrEqual(2);
      expect((await w.api('far', 'get', '/api/compliance-submissions/count')).body.data.count).toBe(0);
      expect((await w.api('operator', 'delete', `/api/compliance-submissions/${s.id}`)).status).toBe(403);
      await w.api('manager', 'delete', `/api/compliance-submissions/${s.id}`).expect(204);
      expect((await w.api('admin', 'get', `/api/compliance-submissions/${s.id}`)).status).toBe(404);
    });
  });

  describe('daily job', () => {
    it('expires permits, sends each expiry notice once and marks obligations overdue, idempotently', async () => {
      const jobs = w.t.app.get(ComplianceDailyJobs);
      const now = Date.now();
      const expired = await permit({ issueDate: inDays(-400), expiryDate: inDays(-1) });
      const in80 = await permit({ expiryDate: inDays(80) });
      const in20 = await permit({ expiryDate: inDays(20) });
      const in5 = await permit({ expiryDate: inDays(5) });
      const in200 = await permit({ expiryDate: inDays(200) });
      const due = await obligation(in200.id, { nextDueDate: inDays(-1), frequency: 'MONTHLY' });
      const notDue = await obligation(in200.id, { nextDueDate: inDays(3), frequency: 'MONTHLY' });

      const first = await jobs.runFor('acme', new Date(now));
      expect(first.permitsExpired).toBeGreaterThanOrEqual(1);
      const second = await jobs.runFor('acme', new Date(now));
      expect(second).toEqual({ permitsExpired: 0, expiryNotices: 0, obligationsOverdue: 0 });

      expect((await w.api('viewer', 'get', `/api/permits/${expired.id}`)).body.data.status).toBe('EXPIRED');
      expect((await w.events('permit.status_changed', expired.id))[0].body.data.previous).toEqual({
        status: 'ACTIVE',
      });
      const notice = async (id: number, count = 1) =>
        (await w.events('permit.expiring', id, count)).map((r) => r.body.data.attributes.daysBeforeExpiry);
      expect(await notice(in80.id)).toEqual([90]);
      expect(await notice(in20.id)).toEqual([30]);
      expect(await notice(in5.id)).toEqual([7]);
      expect(await notice(in200.id)).toEqual([]);

      expect((await w.api('viewer', 'get', `/api/compliance-obligations/${due.id}`)).body.data.status).toBe(
        'OVERDUE',
      );
      expect(
        (await w.api('viewer', 'get', `/api/compliance-obligations/${notDue.id}`)).body.data.status,
      ).toBe('ACTIVE');
      expect(await w.events('obligation.overdue', due.id)).toHaveLength(1);
      const overdue = await w
        .api('viewer', 'get', '/api/compliance-obligations/overdue')
        .query({ pageSize: 100 });
      expect(overdue.body.data.map((o: { id: number }) => o.id)).toContain(due.id);
      const trail = await w.api('admin', 'get', `/compliance/audit/entity/EnvironmentalPermit/${expired.id}`);
      expect(trail.body.data[0].changes.status).toEqual({ old: 'ACTIVE', new: 'EXPIRED' });

      // 60 days on: the 80-day permit reaches its 30-day notice, the 20- and 5-day ones expire.
      const later = await jobs.runFor('acme', new Date(now + 60 * DAY));
      expect(later.expiryNotices).toBeGreaterThanOrEqual(1);
      expect(await notice(in80.id, 2)).toEqual([90, 30]);
      expect((await w.api('viewer', 'get', `/api/permits/${in20.id}`)).body.data.status).toBe('EXPIRED');
      expect(await jobs.runFor('acme', new Date(now + 60 * DAY))).toEqual({
        permitsExpired: 0,
        expiryNotices: 0,
        obligationsOverdue: 0,
      });

      // A new expiry date starts the notices afresh.
      await w
        .api('admin', 'put', `/api/permits/${in5.id}`)
        .send({ expiryDate: inDays(85, now + 60 * DAY), status: 'ACTIVE' })
        .expect(200);
      await jobs.runFor('acme', new Date(now + 60 * DAY));
      expect(await notice(in5.id, 2)).toEqual([7, 90]);
    });

    it('runs once a day per client through the scheduled-task runner, whichever replica asks first', async () => {
      const scheduler = w.t.app.get(ComplianceDailyScheduler);
      expect(await scheduler.tick()).toContain('acme');
      expect(await scheduler.tick()).toEqual([]);
    });
  });
});
