import { SUPER_ADMIN, superAdminToken, TestApp } from '../support/test-app';
import { as, bootIdentityApp, createUser, loginFull, queryMaster, sleep } from './identity-helpers';

/** Windows are shortened by settings: a 3 s rate window and a 5 s lock stand for 1 and 15 minutes. */
const ENV = {
  AUTH_RATE_WINDOW_SECONDS: '3',
  AUTH_LOCK_SECONDS: '5',
  AUTH_ACCOUNT_LOCK_THRESHOLD: '5',
  AUTH_LOGIN_LIMIT_PER_IDENTIFIER: '5',
  AUTH_LOGIN_LIMIT_PER_ADDRESS: '30',
};

describe('identity: lockout and rate limits across two replicas', () => {
  let a: TestApp;
  let b: TestApp;
  let root: string;

  beforeAll(async () => {
    a = await bootIdentityApp({ env: ENV });
    b = await bootIdentityApp({ masterDatabase: a.masterDatabase, env: ENV });
    root = await superAdminToken(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const replica = (i: number) => (i % 2 === 0 ? a : b);

  it('counts login attempts of one address and identifier on both replicas: the sixth answers 429', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await loginFull(replica(i), 'Ghost@Platform.test ', 'wrong-password');
      expect(res.status).toBe(401);
    }
    for (const app of [a, b]) {
      const limited = await loginFull(app, 'ghost@platform.test', 'wrong-password');
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(3);
    }
    expect((await loginFull(b, SUPER_ADMIN.email, SUPER_ADMIN.password)).status).toBe(200);
    const decoy = await loginFull(a, 'ghost@platform.test', 'x');
    expect(decoy.status).toBe(429);
    await sleep(3100);
    expect((await loginFull(b, 'ghost@platform.test', 'wrong-password')).status).toBe(401);
  });

  it('keys the limit on the socket address, not on a forged X-Forwarded-For (no trusted proxy hops)', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await a
        .http()
        .post('/auth/local')
        .set('X-Forwarded-For', `10.0.0.${i}`)
        .send({ identifier: 'spoof@platform.test', password: 'wrong' });
      expect(res.status).toBe(401);
    }
    const res = await a
      .http()
      .post('/auth/local')
      .set('X-Forwarded-For', '10.9.9.9')
      .send({ identifier: 'spoof@platform.test', password: 'wrong' });
    expect(res.status).toBe(429);
    const extra = await a.http().post('/auth/local').send({ identifier: 'x', password: 'y', bypass: 1 });
    expect(extra.status).toBe(400);
  });

  it('locks an account after five failures in a row (423 after the window) and unlocks after the lock time', async () => {
    const id = await createUser(a, root, {
      email: 'locky@platform.test',
      password: 'Locky-password-1',
      role: 'VIEWER',
    });
    for (let i = 0; i < 5; i++) {
      expect((await loginFull(replica(i), 'locky@platform.test', 'wrong-password')).status).toBe(401);
    }
    const lockedAt = Date.now();
    expect((await loginFull(a, 'locky@platform.test', 'Locky-password-1')).status).toBe(429);
    await sleep(3100);
    const locked = await loginFull(b, 'locky@platform.test', 'Locky-password-1');
    expect(locked.status).toBe(423);
    expect(locked.body.error.code).toBe('ACCOUNT_LOCKED');
    const user = await a.http().get(`/api/admin/users/${id}`).set(as(root));
    expect(user.body.data.lockedUntil).not.toBeNull();

    await sleep(Math.max(0, lockedAt + 5200 - Date.now()));
    expect((await loginFull(a, 'locky@platform.test', 'Locky-password-1')).status).toBe(200);

    const events = await queryMaster<{ event: string }>(
      a,
      `SELECT metadata->>'event' AS event FROM audit_logs WHERE entity_id = $1 AND entity_type = 'User'`,
      [id],
    );
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['ACCOUNT_LOCKED', 'LOGIN_FAILED', 'LOGIN_SUCCESS']),
    );
  });

  it('lets an admin unlock a locked account at once', async () => {
    const id = await createUser(a, root, {
      email: 'unlockme@platform.test',
      password: 'Unlock-password-1',
      role: 'VIEWER',
    });
    for (let i = 0; i < 5; i++) {
      expect((await loginFull(replica(i), 'unlockme@platform.test', 'wrong-password')).status).toBe(401);
    }
    await sleep(3100);
    expect((await loginFull(a, 'unlockme@platform.test', 'Unlock-password-1')).status).toBe(423);
    const unlock = await b.http().post(`/api/admin/users/${id}/unlock`).set(as(root));
    expect(unlock.status).toBe(200);
    expect(unlock.body.data.lockedUntil).toBeNull();
    expect((await loginFull(a, 'unlockme@platform.test', 'Unlock-password-1')).status).toBe(200);
  });
});
