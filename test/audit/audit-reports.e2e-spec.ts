import { RetentionScheduler } from '../../src/audit/retention/retention.scheduler';
import { AuditTenant, auditTenant, get } from './audit-support';
import { seedAudit } from './seed';

const JAN = 'startDate=2025-01-01&endDate=2025-01-31';

describe('audit reports and retention', () => {
  let a: AuditTenant;

  beforeAll(async () => {
    a = await auditTenant('audrep', ['MANAGER']);
    await a.admin((pg) => seedAudit(pg));
  });
  afterAll(async () => {
    await a?.close();
  });

  const send = (method: 'put' | 'delete' | 'post', path: string, role: 'ADMIN' | 'MANAGER' = 'ADMIN') =>
    a.t
      .http()
      [method](path)
      .set('X-Client-ID', a.client.identifier)
      .set('Authorization', `Bearer ${a.tokens[role]}`);

  // A pending two-factor step (LOGIN, success false, pending) is not a failed login.
  it('compliance-summary counts the seeded period', async () => {
    const res = await get(a, `/compliance/audit/report/compliance-summary?${JAN}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      period: { startDate: '2025-01-01', endDate: '2025-01-31' },
      totalEvents: 76,
      eventsByAction: { LOGIN: 5, LOGOUT: 3, CREATE: 61, UPDATE: 3, DELETE: 1, ACCESS: 2, EXPORT: 1 },
      eventsByEntityType: { Permit: 4, User: 2, AuditLog: 1, Gauge: 60 },
      uniqueUsers: 3,
      uniqueIpAddresses: 3,
      securityEvents: { failedLogins: 1, passwordChanges: 1, roleChanges: 1 },
      dataChanges: { created: 61, modified: 3, deleted: 1 },
    });
    const oneDay = await get(
      a,
      '/compliance/audit/report/compliance-summary?startDate=2025-01-11&endDate=2025-01-11',
    );
    expect(oneDay.body.data.totalEvents).toBe(6);
    const bad = await get(
      a,
      '/compliance/audit/report/compliance-summary?startDate=2025-02-01&endDate=2025-01-01',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('serves whole past days from daily rollups, and a late entry for such a day is counted at once', async () => {
    await get(a, `/compliance/audit/report/compliance-summary?${JAN}`);
    const cached = await a.admin((pg) =>
      pg.query(
        "SELECT count(*)::int AS n FROM audit_daily_rollups WHERE day BETWEEN '2025-01-01' AND '2025-01-31'",
      ),
    );
    expect(cached.rows[0].n).toBe(31);
    const before = await get(a, `/compliance/audit/report/compliance-summary?${JAN}`);
    await a.admin((pg) =>
      pg.query(
        `INSERT INTO audit_logs (action, entity_type, entity_id, user_id, username, ip_address, timestamp, message)
         VALUES ('DELETE', 'Backfill', 1, 999, 'late@x.test', '10.9.9.9', '2025-01-15T12:00:00Z', 'imported late')`,
      ),
    );
    const after = await get(a, `/compliance/audit/report/compliance-summary?${JAN}`);
    expect(after.body.data.totalEvents).toBe(before.body.data.totalEvents + 1);
    expect(after.body.data.eventsByEntityType.Backfill).toBe(1);
    expect(after.body.data.uniqueUsers).toBe(before.body.data.uniqueUsers + 1);
    expect(after.body.data.uniqueIpAddresses).toBe(before.body.data.uniqueIpAddresses + 1);
    const partial = await get(
      a,
      '/compliance/audit/report/compliance-summary?startDate=2025-01-15T06:00:00Z&endDate=2025-01-20T18:00:00Z',
    );
    const direct = await a.admin((pg) =>
      pg.query(
        "SELECT count(*)::int AS n FROM audit_logs WHERE timestamp >= '2025-01-15T06:00:00Z' AND timestamp <= '2025-01-20T18:00:00Z'",
      ),
    );
    expect(partial.body.data.totalEvents).toBe(direct.rows[0].n);
    await a.admin((pg) =>
      pg.query(
        `BEGIN; SET LOCAL audit.retention = 'on'; DELETE FROM audit_logs WHERE entity_type = 'Backfill'; COMMIT;`,
      ),
    );
    const restored = await get(a, `/compliance/audit/report/compliance-summary?${JAN}`);
    expect(restored.body.data).toEqual(before.body.data);
  });

  it('user-activity pairs sessions from LOGIN/LOGOUT', async () => {
    const alice = await get(a, `/compliance/audit/report/user-activity/9001?${JAN}`);
    expect(alice.status).toBe(200);
    expect(alice.body.data).toEqual({
      userId: 9001,
      username: 'alice@acme.test',
      period: { startDate: '2025-01-01', endDate: '2025-01-31' },
      totalActions: 9,
      actionsByType: { LOGIN: 2, LOGOUT: 2, CREATE: 1, UPDATE: 2, DELETE: 1, EXPORT: 1 },
      entitiesAccessed: { Permit: 3, User: 1, AuditLog: 1 },
      loginSessions: 2,
      avgSessionDurationMinutes: 45,
      ipAddresses: ['10.0.0.1'],
      lastActivity: '2025-01-13T09:30:00.000Z',
    });
    const bob = await get(a, `/compliance/audit/report/user-activity/9002?${JAN}`);
    expect(bob.body.data).toMatchObject({ totalActions: 7, loginSessions: 1, avgSessionDurationMinutes: 39 });
    expect((await get(a, '/compliance/audit/report/user-activity/424242')).status).toBe(404);
  });

  it('entity-access shows creation, last change, accesses per user and field history', async () => {
    const res = await get(a, '/compliance/audit/report/entity-access/Permit/1', 'MANAGER');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      entityType: 'Permit',
      entityId: 1,
      createdAt: '2025-01-10T08:05:00.000Z',
      createdBy: 'alice@acme.test',
      lastModified: '2025-01-10T08:30:00.000Z',
      lastModifiedBy: 'alice@acme.test',
      totalAccessCount: 3,
      uniqueUsersAccessed: 2,
      accessByUser: [
        { username: 'alice@acme.test', accessCount: 2, lastAccess: '2025-01-10T08:30:00.000Z' },
        { username: 'bob@acme.test', accessCount: 1, lastAccess: '2025-01-11T10:10:00.000Z' },
      ],
      changeHistory: [
        {
          timestamp: '2025-01-10T08:30:00.000Z',
          user: 'alice@acme.test',
          action: 'UPDATE',
          field: 'status',
          oldValue: 'DRAFT',
          newValue: 'ACTIVE',
        },
        {
          timestamp: '2025-01-10T08:05:00.000Z',
          user: 'alice@acme.test',
          action: 'CREATE',
          field: 'name',
          oldValue: null,
          newValue: 'P1',
        },
        {
          timestamp: '2025-01-10T08:05:00.000Z',
          user: 'alice@acme.test',
          action: 'CREATE',
          field: 'status',
          oldValue: null,
          newValue: 'DRAFT',
        },
      ],
    });
  });

  it('manages retention policies (ADMIN only, validated, audited)', async () => {
    expect(
      (await send('put', '/compliance/audit/retention-policies/Gauge', 'MANAGER').send({ retentionDays: 30 }))
        .status,
    ).toBe(403);
    const bad = await send('put', '/compliance/audit/retention-policies/Gauge').send({ retentionDays: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(
      (await send('put', '/compliance/audit/retention-policies/bad%20type').send({ retentionDays: 5 }))
        .status,
    ).toBe(400);

    const set = await send('put', '/compliance/audit/retention-policies/Gauge').send({ retentionDays: 30 });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ entityType: 'Gauge', retentionDays: 30 });
    expect(
      (await send('put', '/compliance/audit/retention-policies/Old').send({ retentionDays: 10 })).status,
    ).toBe(200);
    expect((await send('delete', '/compliance/audit/retention-policies/Old')).status).toBe(204);
    expect((await send('delete', '/compliance/audit/retention-policies/Old')).status).toBe(404);

    const listed = await get(a, '/compliance/audit/retention-policies');
    expect(listed.body.data.defaultRetentionDays).toBe(2555);
    expect(listed.body.data.policies.map((p: { entityType: string }) => p.entityType)).toEqual(['Gauge']);
    const trail = await get(a, '/compliance/audit/entity-type/AuditRetentionPolicy');
    expect(trail.body.data.map((e: { action: string }) => e.action)).toEqual(['DELETE', 'CREATE', 'CREATE']);
  });

  it('retention report shows eligible entries and storage; the run removes exactly those', async () => {
    const before = await get(a, '/compliance/audit/report/retention');
    expect(before.status).toBe(200);
    const gauge = before.body.data.retentionPolicies.find(
      (p: { entityType: string }) => p.entityType === 'Gauge',
    );
    expect(gauge).toEqual({
      entityType: 'Gauge',
      retentionDays: 30,
      oldestRecord: '2025-01-05',
      totalRecords: 60,
      recordsEligibleForDeletion: 60,
    });
    const permit = before.body.data.retentionPolicies.find(
      (p: { entityType: string }) => p.entityType === 'Permit',
    );
    expect(permit).toMatchObject({ retentionDays: 2555, totalRecords: 4, recordsEligibleForDeletion: 0 });
    expect(before.body.data.complianceStatus).toBe('ACTION_REQUIRED');
    expect(before.body.data.recommendations.join(' ')).toMatch(/60 audit entries are past/);
    for (const size of Object.values(before.body.data.storageUsage))
      expect(size).toMatch(/^\d+ (bytes|kB|MB|GB)$/);

    const run = await send('post', '/compliance/audit/retention/run');
    expect(run.status).toBe(200);
    expect(run.body.data).toEqual({ deleted: 60, schemas: { public: 60 } });

    const after = await get(a, '/compliance/audit/report/retention');
    expect(after.body.data.complianceStatus).toBe('COMPLIANT');
    expect(
      after.body.data.retentionPolicies.find((p: { entityType: string }) => p.entityType === 'Gauge'),
    ).toMatchObject({
      totalRecords: 0,
      recordsEligibleForDeletion: 0,
    });
    expect((await get(a, '/compliance/audit/entity/Permit/1')).body.data).toHaveLength(3);
    const marker = await get(a, '/compliance/audit/entity-type/AuditLog?startDate=2026-01-01');
    expect(marker.body.data[0]).toMatchObject({
      action: 'DELETE',
      message: 'Retention removed 60 audit entries past their policy',
    });
  });

  it('the scheduled job applies the policies once per client', async () => {
    await a.admin((pg) =>
      pg.query(
        `INSERT INTO audit_logs (action, entity_type, entity_id, timestamp, message)
         SELECT 'CREATE', 'Gauge', g, now() - interval '40 days', 'old gauge' FROM generate_series(1, 5) g`,
      ),
    );
    const ran = await a.t.app.get(RetentionScheduler).tick();
    expect(ran).toContain(a.client.identifier);
    const { rows } = await a.admin((pg) =>
      pg.query(`SELECT count(*)::int AS n FROM audit_logs WHERE message = 'old gauge'`),
    );
    expect(rows[0].n).toBe(0);
    // The same period again finds the work done (lock per client and period).
    expect(await a.t.app.get(RetentionScheduler).tick()).not.toContain(a.client.identifier);
  });
});
