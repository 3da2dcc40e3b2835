import { Client as PgClient } from 'pg';
import { parseDatabaseUrl, withAdminConnection } from '../../src/database/data-source-factory';
import { ADMIN_URL } from '../support/test-env';
import { AuditTenant, auditTenant, eventually, get } from './audit-support';

const UA = 'audit-e2e/1.0';

describe('audit recording', () => {
  let a: AuditTenant;

  beforeAll(async () => {
    a = await auditTenant('audrec');
  });
  afterAll(async () => {
    await a?.close();
  });

  const units = () => ({
    post: (body: object) =>
      a.t
        .http()
        .post('/api/units')
        .set('X-Client-ID', 'audrec')
        .set('User-Agent', UA)
        .set('Authorization', `Bearer ${a.tokens.ADMIN}`)
        .send(body),
    put: (id: number, body: object) =>
      a.t
        .http()
        .put(`/api/units/${id}`)
        .set('X-Client-ID', 'audrec')
        .set('User-Agent', UA)
        .set('Authorization', `Bearer ${a.tokens.ADMIN}`)
        .send(body),
    delete: (id: number) =>
      a.t
        .http()
        .delete(`/api/units/${id}`)
        .set('X-Client-ID', 'audrec')
        .set('User-Agent', UA)
        .set('Authorization', `Bearer ${a.tokens.ADMIN}`),
  });
  const trail = async (id: number) => {
    const res = await get(a, `/compliance/audit/entity/Unit/${id}`);
    expect(res.status).toBe(200);
    return res.body.data as { action: string; changes: Record<string, unknown>; [k: string]: unknown }[];
  };

  it('records create, update and delete of a unit with field diffs, user, address and agent', async () => {
    const created = await units().post({ name: 'GT-1', code: 'GT1', capacityMw: 100 });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;

    let entries = await trail(id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'CREATE',
      entityType: 'Unit',
      entityId: id,
      username: a.client.adminEmail,
      ipAddress: '127.0.0.1',
      userAgent: UA,
      message: 'Unit "GT-1" created',
    });
    expect(entries[0].userId).toEqual(expect.any(Number));
    expect(entries[0].changes).toMatchObject({
      name: { old: null, new: 'GT-1' },
      code: { old: null, new: 'GT1' },
      capacityMw: { old: null, new: 100 },
    });

    expect((await units().put(id, { status: 'MAINTENANCE', capacityMw: 120 })).status).toBe(200);
    entries = await trail(id);
    expect(entries.map((e) => e.action)).toEqual(['UPDATE', 'CREATE']);
    expect(entries[0].changes).toEqual({
      status: { old: 'OPERATIONAL', new: 'MAINTENANCE' },
      capacityMw: { old: 100, new: 120 },
    });

    expect((await units().delete(id)).status).toBe(204);
    entries = await trail(id);
    expect(entries.map((e) => e.action)).toEqual(['DELETE', 'UPDATE', 'CREATE']);
    expect(entries[0].changes).toMatchObject({
      name: { old: 'GT-1', new: null },
      status: { old: 'MAINTENANCE', new: null },
    });
  });

  it('leaves no UPDATE entry when the update rolls back, and records the error answer', async () => {
    const first = await units().post({ name: 'Boiler A', code: 'BA' });
    const second = await units().post({ name: 'Boiler B', code: 'BB' });
    const id = first.body.data.id as number;
    const clash = await units().put(id, { code: 'BB', location: 'Hall 2' });
    expect(clash.status).toBe(409);
    expect(second.status).toBe(201);

    const entries = await trail(id);
    expect(entries.map((e) => e.action)).toEqual(['CREATE']);
    const { rows } = await a.admin((pg) =>
      pg.query(
        `SELECT count(*)::int AS n FROM audit_logs WHERE action = 'UPDATE' AND entity_type = 'Unit' AND entity_id = $1`,
        [id],
      ),
    );
    expect(rows[0].n).toBe(0);

    const recorded = await eventually(async () => {
      const res = await get(a, '/compliance/audit/errors?code=CONFLICT');
      expect(res.status).toBe(200);
      const hit = res.body.data.find(
        (e: { metadata: { path: string } }) => e.metadata.path === `/api/units/${id}`,
      );
      expect(hit).toBeDefined();
      return hit;
    });
    expect(recorded).toMatchObject({
      action: 'ACCESS',
      username: a.client.adminEmail,
      ipAddress: '127.0.0.1',
      metadata: { error: { status: 409, code: 'CONFLICT' }, method: 'PUT' },
    });
  });

  it('records a refused call with its status and code, without the query string', async () => {
    const res = await get(a, '/api/units/987654?secret=abc');
    expect(res.status).toBe(404);
    const hit = await eventually(async () => {
      const list = await get(a, '/compliance/audit/errors?status=404');
      const found = list.body.data.find(
        (e: { metadata: { path: string } }) => e.metadata.path === '/api/units/987654',
      );
      expect(found).toBeDefined();
      return found;
    });
    expect(hit.metadata.error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(JSON.stringify(hit)).not.toContain('secret=abc');
  });

  it('keeps a sandbox trail apart from production, and retention prunes both', async () => {
    const sandbox = await a.t
      .http()
      .post('/sandboxes')
      .set('X-Client-ID', 'audrec')
      .set('Authorization', `Bearer ${a.tokens.ADMIN}`)
      .send({ name: 'Trial' });
    expect(sandbox.status).toBe(201);
    const inSandbox = (path: string) => get(a, path).set('X-Tenant-ID', 'sandbox_trial');
    const created = await a.t
      .http()
      .post('/api/units')
      .set('X-Client-ID', 'audrec')
      .set('X-Tenant-ID', 'sandbox_trial')
      .set('Authorization', `Bearer ${a.tokens.ADMIN}`)
      .send({ name: 'Sandbox unit' });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    const sandboxTrail = await inSandbox(`/compliance/audit/entity/Unit/${id}`);
    expect(sandboxTrail.body.data.map((e: { message: string }) => e.message)).toEqual([
      'Unit "Sandbox unit" created',
    ]);
    const production = await get(a, '/compliance/audit/search?query=Sandbox%20unit');
    expect(production.body.meta.pagination.total).toBe(0);

    await a.admin(async (pg) => {
      for (const schema of ['public', 'sandbox_trial']) {
        await pg.query(
          `INSERT INTO ${schema}.audit_logs (action, entity_type, entity_id, timestamp, message)
           VALUES ('CREATE', 'Ancient', 1, now() - interval '3000 days', 'ancient entry')`,
        );
      }
    });
    const run = await a.t
      .http()
      .post('/compliance/audit/retention/run')
      .set('X-Client-ID', 'audrec')
      .set('Authorization', `Bearer ${a.tokens.ADMIN}`);
    expect(run.status).toBe(200);
    expect(run.body.data).toEqual({ deleted: 2, schemas: { public: 1, sandbox_trial: 1 } });
    const left = await inSandbox(`/compliance/audit/entity/Unit/${id}`);
    expect(left.body.data).toHaveLength(1);
  });

  it("refuses UPDATE, DELETE and TRUNCATE of audit rows to the client's own database role", async () => {
    const target = {
      ...parseDatabaseUrl(ADMIN_URL),
      database: a.database,
      username: a.database,
      password: undefined,
    };
    const attempt = (sql: string) =>
      withAdminConnection(target, (pg: PgClient) => pg.query(sql)).then(
        () => null,
        (err: { code?: string }) => err.code,
      );
    expect(await attempt(`SELECT count(*) FROM audit_logs`)).toBeNull();
    expect(await attempt(`UPDATE audit_logs SET message = 'forged'`)).toBe('42501');
    expect(await attempt(`DELETE FROM audit_logs`)).toBe('42501');
    expect(await attempt(`TRUNCATE audit_logs`)).toBe('42501');
    const { rows } = await a.admin((pg) =>
      pg.query(`SELECT count(*)::int AS n FROM audit_logs WHERE message = 'forged'`),
    );
    expect(rows[0].n).toBe(0);
  });

  it('guards the master database (reached as superuser) with a trigger only retention can pass', async () => {
    const master = { ...parseDatabaseUrl(ADMIN_URL), database: a.t.masterDatabase };
    await withAdminConnection(master, async (pg) => {
      await pg.query(`INSERT INTO audit_logs (action, message) VALUES ('ACCESS', 'guard probe')`);
      await expect(pg.query(`UPDATE audit_logs SET message = 'forged'`)).rejects.toThrow(/append-only/);
      await expect(pg.query(`DELETE FROM audit_logs WHERE message = 'guard probe'`)).rejects.toThrow(
        /append-only/,
      );
      await pg.query('BEGIN');
      await pg.query(`SELECT set_config('audit.retention', 'on', true)`);
      const removed = await pg.query(`DELETE FROM audit_logs WHERE message = 'guard probe'`);
      await pg.query('COMMIT');
      expect(removed.rowCount).toBe(1);
      // The setting is transaction-local: the next statement is refused again.
      await expect(pg.query(`DELETE FROM audit_logs WHERE false`)).rejects.toThrow(/append-only/);
    });
  });
});
