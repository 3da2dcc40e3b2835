import type Redis from 'ioredis';
import { RedisService } from '../../src/redis/redis.service';
import { superAdminToken, TestApp } from '../support/test-app';
import { as, bootIdentityApp, createUser, loginFull, queryMaster, roleId, sleep } from './identity-helpers';

/**
 * A user's state is cached per process until a change invalidates it (AUTH_STATE_CACHE_SECONDS is
 * only a backstop): these prove that a change made on one replica reaches a replica that cached the
 * user long ago (well past the former 5-s life) within a second.
 */
describe('identity: changes of a cached user reach another replica within a second', () => {
  let a: TestApp;
  let b: TestApp;
  let root: string;

  beforeAll(async () => {
    a = await bootIdentityApp();
    b = await bootIdentityApp({ masterDatabase: a.masterDatabase });
    root = await superAdminToken(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const units = (app: TestApp, token: string) => app.http().get('/api/units').set(as(token));

  /** Polls `app` until the request answers `status`; answers how long that took, or null after 1 s. */
  async function withinASecond(request: () => Promise<{ status: number }>, status: number) {
    const started = Date.now();
    while (Date.now() - started < 1000) {
      if ((await request()).status === status) return Date.now() - started;
      await sleep(20);
    }
    return null;
  }

  async function viewerSession(email: string) {
    const id = await createUser(a, root, { email, password: 'Cached-password-1', role: 'VIEWER' });
    const login = await loginFull(a, email, 'Cached-password-1');
    expect(login.status).toBe(200);
    return { id, token: login.body.jwt as string };
  }

  it("a role's permissions changed on A take effect on B, which cached the user over 5 s before", async () => {
    const { token } = await viewerSession('role-cached@platform.test');
    expect((await units(b, token)).status).toBe(200);
    await sleep(6000);
    expect((await units(b, token)).status).toBe(200);

    const viewer = await roleId(a, root, 'VIEWER');
    const before: string[] = (await a.http().get(`/api/admin/roles/${viewer}`).set(as(root))).body.data
      .permissions;
    const without = before.filter((p) => p !== 'units:read');
    expect(without.length).toBeLessThan(before.length);
    const put = (permissions: string[]) =>
      a.http().put(`/api/admin/roles/${viewer}`).set(as(root)).send({ permissions });

    expect((await put(without)).status).toBe(200);
    expect(await withinASecond(() => units(b, token), 403)).not.toBeNull();

    await sleep(6000);
    expect((await put(before)).status).toBe(200);
    expect(await withinASecond(() => units(b, token), 200)).not.toBeNull();
  }, 60_000);

  it("a user's role assigned on A takes effect on B, which cached the user over 5 s before", async () => {
    const id = await createUser(a, root, {
      email: 'demoted@platform.test',
      password: 'Cached-password-1',
      role: 'ADMIN',
    });
    const token = (await loginFull(a, 'demoted@platform.test', 'Cached-password-1')).body.jwt as string;
    // An empty body: 400 for a role that may create units (the guard let it through), 403 for a VIEWER.
    const create = () => b.http().post('/api/units').set(as(token)).send({});
    expect((await create()).status).toBe(400);
    await sleep(6000);
    expect((await create()).status).toBe(400);

    const viewer = await roleId(a, root, 'VIEWER');
    const assigned = await a.http().put(`/api/admin/users/${id}/role`).set(as(root)).send({ roleId: viewer });
    expect(assigned.status).toBe(200);
    expect(await withinASecond(create, 403)).not.toBeNull();
  }, 60_000);

  it('a user blocked on A is refused on B, which cached the user over 5 s before', async () => {
    const { id, token } = await viewerSession('block-cached@platform.test');
    expect((await units(b, token)).status).toBe(200);
    await sleep(6000);
    expect((await units(b, token)).status).toBe(200);

    expect((await a.http().post(`/api/admin/users/${id}/block`).set(as(root))).status).toBe(200);
    expect(await withinASecond(() => units(b, token), 401)).not.toBeNull();
  }, 60_000);

  it('drops every cached user when the Redis subscriber reconnects (messages may have been lost)', async () => {
    const { id, token } = await viewerSession('lost-message@platform.test');
    expect((await units(b, token)).status).toBe(200);
    // A block no replica hears of: only the reconnect can make B read the user again.
    await queryMaster(a, 'UPDATE users SET blocked = true WHERE id = $1', [id]);
    expect((await units(b, token)).status).toBe(200);

    const redis = b.app.get(RedisService);
    const subscriber = await (redis as unknown as { subscriber: Promise<Redis> }).subscriber;
    subscriber.disconnect(true);
    const started = Date.now();
    while (Date.now() - started < 5000 && (await units(b, token)).status !== 401) await sleep(50);
    expect((await units(b, token)).status).toBe(401);
    while (Date.now() - started < 10_000 && !redis.subscribed) await sleep(50);
    expect(redis.subscribed).toBe(true);

    // Announcements reach B again after the reconnect.
    const other = await viewerSession('after-reconnect@platform.test');
    expect((await units(b, other.token)).status).toBe(200);
    await sleep(6000);
    expect((await a.http().post(`/api/admin/users/${other.id}/block`).set(as(root))).status).toBe(200);
    expect(await withinASecond(() => units(b, other.token), 401)).not.toBeNull();
  }, 60_000);
});
