import bcrypt from 'bcrypt';
import { AuditTenant, auditTenant, get, PASSWORD } from '../audit/audit-support';
import { login } from '../support/test-app';

/** Below ADMIN, every audit query and report sees only entries of the caller's company. */
describe('audit company scope', () => {
  let a: AuditTenant;
  let unitId: number;
  let managerId: number;
  let otherToken: string;

  beforeAll(async () => {
    a = await auditTenant('audscope', ['MANAGER']);
    const hash = await bcrypt.hash(PASSWORD, 4);
    await a.admin(async (pg) => {
      const [company] = (await pg.query(`INSERT INTO companies (name) VALUES ('Other Co') RETURNING id`))
        .rows;
      await pg.query(
        `INSERT INTO users (email, username, first_name, last_name, password_hash, role_id, company_id)
         SELECT 'other-manager@audscope.test', 'othermanager', 'Other', 'Manager', $1,
                (SELECT id FROM roles WHERE type = 'MANAGER'), $2`,
        [hash, company.id],
      );
      managerId = (await pg.query(`SELECT id FROM users WHERE username = 'manager'`)).rows[0].id;
    });
    otherToken = await login(a.t, 'other-manager@audscope.test', PASSWORD, 'audscope');
    const created = await a.t
      .http()
      .post('/api/units')
      .set('X-Client-ID', 'audscope')
      .set('Authorization', `Bearer ${a.tokens.MANAGER}`)
      .send({ name: 'Scoped turbine zq7' });
    expect(created.status).toBe(201);
    unitId = created.body.data?.id ?? created.body.id;
  });
  afterAll(async () => {
    await a?.close();
  });

  const asOther = (path: string) =>
    a.t.http().get(path).set('X-Client-ID', 'audscope').set('Authorization', `Bearer ${otherToken}`);

  const paths = () => ({
    entity: `/compliance/audit/entity/Unit/${unitId}`,
    search: '/compliance/audit/search?query=zq7',
    user: `/compliance/audit/user/${managerId}`,
    entityType: '/compliance/audit/entity-type/Unit',
    action: '/compliance/audit/action/CREATE',
  });

  it('lets the manager of the company read its own entries', async () => {
    for (const path of Object.values(paths())) {
      const res = await get(a, path, 'MANAGER');
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeGreaterThan(0);
    }
    const report = await get(a, `/compliance/audit/report/entity-access/Unit/${unitId}`, 'MANAGER');
    expect(report.body.data.totalAccessCount).toBeGreaterThan(0);
  });

  it("hides another company's entries from a manager", async () => {
    for (const path of Object.values(paths())) {
      const res = await asOther(path);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    }
    const report = await asOther(`/compliance/audit/report/entity-access/Unit/${unitId}`);
    expect(report.status).toBe(200);
    expect(report.body.data).toMatchObject({ totalAccessCount: 0, changeHistory: [], accessByUser: [] });
  });

  it('lets an ADMIN read every company', async () => {
    const res = await get(a, `/compliance/audit/entity/Unit/${unitId}`);
    expect(res.body.data.length).toBeGreaterThan(0);
  });
});
