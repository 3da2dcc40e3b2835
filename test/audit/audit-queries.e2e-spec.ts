import { AuditTenant, auditTenant, get } from './audit-support';
import { seedAudit } from './seed';

const JAN = 'startDate=2025-01-01&endDate=2025-01-31';

interface Entry {
  id: number;
  action: string;
  entityType: string | null;
  entityId: number | null;
  userId: number | null;
  timestamp: string;
  message: string | null;
  metadata: Record<string, unknown> | null;
}

describe('audit queries', () => {
  let a: AuditTenant;

  beforeAll(async () => {
    // Lists count exactly up to 70 matches, then estimate (76 seeded entries in January 2025).
    a = await auditTenant('audq', ['MANAGER', 'OPERATOR', 'VIEWER'], { AUDIT_EXACT_COUNT_LIMIT: '70' });
    await a.admin((pg) => seedAudit(pg));
  });
  afterAll(async () => {
    await a?.close();
  });

  const list = async (path: string) => {
    const res = await get(a, path);
    expect(res.status).toBe(200);
    return res.body as { data: Entry[]; meta: { pagination: Record<string, number>; totalExact: boolean } };
  };
  const newestFirst = (entries: Entry[]) => {
    const times = entries.map((e) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((x, y) => y - x));
  };

  it('gives the trail of one entity as { data }, newest first', async () => {
    const res = await get(a, '/compliance/audit/entity/Permit/1');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data.map((e: Entry) => e.action)).toEqual(['ACCESS', 'UPDATE', 'CREATE']);
    expect(res.body.data[1]).toMatchObject({
      entityType: 'Permit',
      entityId: 1,
      userId: 9001,
      username: 'alice@acme.test',
      ipAddress: '10.0.0.1',
      changes: { status: { old: 'DRAFT', new: 'ACTIVE' } },
    });
  });

  it('filters by user, entity type, action, address, message and period', async () => {
    const byUser = await list('/compliance/audit/user/9002');
    expect(byUser.meta.pagination.total).toBe(7);
    expect(byUser.data.every((e) => e.userId === 9002)).toBe(true);
    newestFirst(byUser.data);

    const deletes = await list(`/compliance/audit/action/delete?${JAN}`);
    expect(deletes.data.map((e) => [e.entityType, e.entityId])).toEqual([['Permit', 2]]);

    const byIp = await list('/compliance/audit/ip/10.0.0.2');
    expect(byIp.meta.pagination.total).toBe(7);

    const found = await list(`/compliance/audit/search?query=p1&${JAN}`);
    expect(found.data.map((e) => e.message).sort()).toEqual([
      'Permit "P1" created',
      'Permit "P1" updated',
      'Permit "P1" viewed',
    ]);
    const wildcard = await list(`/compliance/audit/search?query=%25&${JAN}`);
    expect(wildcard.meta.pagination.total).toBe(0);

    const day = await list('/compliance/audit/time-range?startDate=2025-01-11&endDate=2025-01-11');
    expect(day.meta.pagination.total).toBe(6);
    const upTo = await list('/compliance/audit/time-range?startDate=2025-01-11&endDate=2025-01-11T10:10:00Z');
    expect(upTo.meta.pagination.total).toBe(4);

    const userInPeriod = await list('/compliance/audit/user/9001?startDate=2025-01-13&endDate=2025-01-13');
    expect(userInPeriod.data.map((e) => e.action)).toEqual(['LOGOUT', 'LOGIN']);
  });

  it('lists security events and recorded errors', async () => {
    const security = await list(`/compliance/audit/security?${JAN}`);
    expect(security.meta.pagination.total).toBe(10);
    expect(
      security.data
        .filter((e) => e.action === 'UPDATE')
        .map((e) => e.message)
        .sort(),
    ).toEqual(['Password changed', 'Role assigned']);
    const errors = await list(`/compliance/audit/errors?${JAN}`);
    expect(errors.data).toHaveLength(1);
    expect(errors.data[0].metadata).toMatchObject({ error: { status: 404, code: 'NOT_FOUND' } });
    expect((await list(`/compliance/audit/errors?code=CONFLICT&${JAN}`)).data).toHaveLength(0);
  });

  it('pages 0-based, size capped, newest first', async () => {
    const body = await list('/compliance/audit/entity-type/Gauge?page=2&size=25');
    expect(body.meta.pagination).toEqual({ page: 2, pageSize: 25, pageCount: 3, total: 60 });
    expect(body.data.map((e) => e.entityId)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const first = await list('/compliance/audit/entity-type/Gauge');
    expect(first.meta.pagination).toEqual({ page: 0, pageSize: 50, pageCount: 2, total: 60 });
    expect(first.data[0].entityId).toBe(60);
  });

  it('counts exactly up to AUDIT_EXACT_COUNT_LIMIT, then gives an estimate and says so', async () => {
    const exact = await list('/compliance/audit/entity-type/Gauge');
    expect(exact.meta).toMatchObject({ pagination: { total: 60 }, totalExact: true });
    const estimated = await list(`/compliance/audit/time-range?${JAN}`);
    expect(estimated.meta).toMatchObject({ totalExact: false });
    expect(estimated.meta.pagination.total).toBeGreaterThan(70);
    expect(estimated.data).toHaveLength(50);
  });

  it.each([
    ['/compliance/audit/action/FOO', 'action'],
    ['/compliance/audit/time-range?startDate=2025-13-01&endDate=2025-01-31', 'startDate'],
    ['/compliance/audit/time-range?startDate=2025-02-01&endDate=2025-01-31', 'startDate'],
    ['/compliance/audit/time-range?startDate=2025-01-01', 'endDate'],
    ['/compliance/audit/user/9001?endDate=yesterday', 'endDate'],
    ['/compliance/audit/ip/999.1.1.1', 'ipAddress'],
    ['/compliance/audit/user/abc', 'userId'],
    ['/compliance/audit/entity/Permit/0', 'entityId'],
    ['/compliance/audit/entity-type/Gauge?size=501', 'size'],
    ['/compliance/audit/entity-type/Gauge?page=-1', 'page'],
    ['/compliance/audit/search', 'query'],
    ['/compliance/audit/errors?status=200', 'status'],
    ['/compliance/audit/export?format=xml', 'format'],
  ])('answers 400 VALIDATION_ERROR to %s', async (path, field) => {
    const res = await get(a, path);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it.each([
    ['/compliance/audit/entity-type/Gauge', 200, 403, 403],
    ['/compliance/audit/entity/Permit/1', 200, 403, 403],
    ['/compliance/audit/errors', 200, 403, 403],
    ['/compliance/audit/report/entity-access/Permit/1', 200, 403, 403],
    ['/compliance/audit/security', 403, 403, 403],
    ['/compliance/audit/ip/10.0.0.1', 403, 403, 403],
    ['/compliance/audit/report/compliance-summary', 403, 403, 403],
    ['/compliance/audit/report/user-activity/9001', 403, 403, 403],
    ['/compliance/audit/report/retention', 403, 403, 403],
    ['/compliance/audit/retention-policies', 403, 403, 403],
    ['/compliance/audit/export', 403, 403, 403],
  ])(
    '%s answers MANAGER %i, OPERATOR %i, VIEWER %i and ADMIN 200',
    async (path, manager, operator, viewer) => {
      expect((await get(a, path, 'MANAGER')).status).toBe(manager);
      expect((await get(a, path, 'OPERATOR')).status).toBe(operator);
      expect((await get(a, path, 'VIEWER')).status).toBe(viewer);
      expect((await get(a, path, 'ADMIN')).status).toBe(200);
      const anonymous = await a.t.http().get(path).set('X-Client-ID', 'audq');
      expect(anonymous.status).toBe(401);
    },
  );

  it('documents every audit endpoint in the OpenAPI document', async () => {
    const res = await a.t.http().get('/api/docs-json');
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths).filter((p) => p.startsWith('/compliance/audit'));
    expect(paths).toEqual(
      expect.arrayContaining([
        '/compliance/audit/entity/{entityType}/{entityId}',
        '/compliance/audit/user/{userId}',
        '/compliance/audit/entity-type/{entityType}',
        '/compliance/audit/action/{action}',
        '/compliance/audit/time-range',
        '/compliance/audit/security',
        '/compliance/audit/errors',
        '/compliance/audit/search',
        '/compliance/audit/ip/{ipAddress}',
        '/compliance/audit/export',
        '/compliance/audit/report/compliance-summary',
        '/compliance/audit/report/user-activity/{userId}',
        '/compliance/audit/report/entity-access/{entityType}/{entityId}',
        '/compliance/audit/report/retention',
        '/compliance/audit/retention-policies',
        '/compliance/audit/retention-policies/{entityType}',
        '/compliance/audit/retention/run',
      ]),
    );
    for (const path of paths) {
      const operations = res.body.paths[path] as Record<string, { tags: string[]; summary: string }>;
      for (const operation of Object.values(operations)) {
        expect(operation.tags).toContain('Audit and compliance');
        expect(operation.summary).toBeTruthy();
      }
    }
  });

  it('exports CSV and JSON lines with the filters, and records the export', async () => {
    const csv = await get(a, '/compliance/audit/export?format=csv&entityType=Gauge');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="audit-export-.*\.csv"/);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe(
      'id,timestamp,action,entityType,entityId,userId,username,ipAddress,userAgent,message,changes,metadata',
    );
    expect(lines).toHaveLength(61);
    expect(lines[1]).toContain(',CREATE,Gauge,60,9003,carol@acme.test,10.0.0.3,,Gauge #60 created,,');

    const jsonl = await get(a, `/compliance/audit/export?format=jsonl&action=DELETE&${JAN}`)
      .buffer(true)
      .parse((res, cb) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => cb(null, text));
      });
    expect(jsonl.status).toBe(200);
    expect(jsonl.headers['content-type']).toMatch(/application\/x-ndjson/);
    const rows = (jsonl.body as string)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'DELETE',
      entityType: 'Permit',
      entityId: 2,
      changes: { name: { old: 'P2', new: null } },
    });

    const exports = await list('/compliance/audit/action/EXPORT?startDate=2026-01-01');
    expect(exports.data.map((e) => e.metadata?.format)).toEqual(expect.arrayContaining(['csv', 'jsonl']));
    const jsonlEntry = exports.data.find((e) => e.metadata?.format === 'jsonl');
    expect(jsonlEntry?.metadata?.filters).toMatchObject({ action: 'DELETE', startDate: '2025-01-01' });
  });
});
