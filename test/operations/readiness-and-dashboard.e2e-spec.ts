import { DrainState } from '../../src/observability/shutdown/drain-state';
import { createUser } from '../identity/identity-helpers';
import { bootApp, login, superAdminToken, TestApp } from '../support/test-app';

describe('operations: readiness while draining, queue dashboard', () => {
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    t = await bootApp();
    root = await superAdminToken(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows the queues to a SUPER_ADMIN only', async () => {
    const page = await t.http().get('/admin/queues').set('Authorization', `Bearer ${root}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
    const queues = await t.http().get('/admin/queues/api/queues').set('Authorization', `Bearer ${root}`);
    expect(queues.status).toBe(200);
    const names = (queues.body.queues as { name: string }[]).map((q) => q.name);
    expect(names).toEqual(expect.arrayContaining(['provisioning', 'webhook-deliveries']));

    await createUser(t, root, {
      email: 'queues.admin@platform.test',
      password: 'Admin-password-1',
      role: 'ADMIN',
    });
    const admin = await login(t, 'queues.admin@platform.test', 'Admin-password-1');
    for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
      const refused = await t.http().get(path).set('Authorization', `Bearer ${admin}`);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
    const anonymous = await t.http().get('/admin/queues');
    expect(anonymous.status).toBe(401);
    const forged = await t.http().get('/admin/queues').set('Authorization', 'Bearer not-a-token');
    expect(forged.status).toBe(401);
  });

  it('answers readiness 503 from the moment the process drains, liveness still 200', async () => {
    expect((await t.http().get('/management/health/readiness')).status).toBe(200);
    t.app.get(DrainState).startDraining();
    const ready = await t.http().get('/management/health/readiness');
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('shutting_down');
    expect((await t.http().get('/management/health/liveness')).status).toBe(200);
    const served = await t.http().get('/api/units').set('Authorization', `Bearer ${root}`);
    expect(served.status).toBe(200);
    expect(served.headers.connection).toBe('close');
  });
});
