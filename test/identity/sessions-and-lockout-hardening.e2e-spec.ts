import speakeasy from 'speakeasy';
import { AuthSettings } from '../../src/identity/auth/auth.settings';
import { loadSettings } from '../../src/config/load-settings';
import { codeFromMail, SmtpSink } from '../support/smtp-sink';
import { SUPER_ADMIN, superAdminToken, TestApp } from '../support/test-app';
import { as, bootIdentityApp, createUser, roleId } from './identity-helpers';

const totp = (secret: string, offset = 0) =>
  speakeasy.totp({ secret, encoding: 'base32', time: Math.floor(Date.now() / 1000) + offset * 30 });

/**
 * One trusted proxy hop, so X-Forwarded-For stands for the caller's address; rate limits are raised
 * so the locks (423) show instead of 429. The account-wide lock is set to 8 failures.
 */
const ENV = {
  TRUST_PROXY_HOPS: '1',
  AUTH_LOGIN_LIMIT_PER_IDENTIFIER: '100',
  AUTH_LOGIN_LIMIT_PER_ADDRESS: '200',
  AUTH_2FA_LIMIT: '50',
  AUTH_LOCK_THRESHOLD: '5',
  AUTH_ACCOUNT_LOCK_THRESHOLD: '8',
  AUTH_LOCK_SECONDS: '600',
  TWO_FACTOR_WINDOW: '2',
};

describe('identity hardening: sessions end, every failure counts, locks per address, API token limits', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootIdentityApp({ env: { ...ENV, SMTP_URL: sink.url } });
    root = await superAdminToken(t);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  const login = (identifier: string, password: string, from = '198.51.100.1') =>
    t.http().post('/auth/local').set('X-Forwarded-For', from).send({ identifier, password });
  const units = (jwt: string) => t.http().get('/api/units').set(as(jwt));
  const refresh = (refreshToken: string) => t.http().post('/auth/refresh-token').send({ refreshToken });

  it('ends every session of the user on logout, access tokens included', async () => {
    await createUser(t, root, {
      email: 'leaver@platform.test',
      password: 'Leaver-password-1',
      role: 'VIEWER',
    });
    const laptop = (await login('leaver@platform.test', 'Leaver-password-1')).body;
    const phone = (await login('leaver@platform.test', 'Leaver-password-1')).body;
    expect((await units(laptop.jwt)).status).toBe(200);
    expect((await units(phone.jwt)).status).toBe(200);

    const out = await t.http().post('/auth/logout').send({ refreshToken: laptop.refreshToken });
    expect(out.status).toBe(200);
    const refused = await units(laptop.jwt);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('INVALID_TOKEN');
    expect((await units(phone.jwt)).status).toBe(401);
    expect((await refresh(phone.refreshToken)).status).toBe(401);
    expect((await t.http().post('/auth/logout').send({ refreshToken: laptop.refreshToken })).status).toBe(
      401,
    );

    const again = (await login('leaver@platform.test', 'Leaver-password-1')).body;
    expect((await units(again.jwt)).status).toBe(200);
  });

  it('keeps the sessions from before a block dead after the unblock', async () => {
    const id = await createUser(t, root, {
      email: 'blocked.once@platform.test',
      password: 'Blocked-password-1',
      role: 'VIEWER',
    });
    const before = (await login('blocked.once@platform.test', 'Blocked-password-1')).body;
    expect((await units(before.jwt)).status).toBe(200);
    expect((await t.http().post(`/api/admin/users/${id}/block`).set(as(root))).status).toBe(200);
    expect((await units(before.jwt)).status).toBe(401);
    expect((await t.http().post(`/api/admin/users/${id}/unblock`).set(as(root))).status).toBe(200);
    expect((await units(before.jwt)).status).toBe(401);
    expect((await refresh(before.refreshToken)).status).toBe(401);
    const after = (await login('blocked.once@platform.test', 'Blocked-password-1')).body;
    expect((await units(after.jwt)).status).toBe(200);
  });

  it('counts wrong two-factor codes as failed logins, across challenges, up to the lock', async () => {
    const email = 'second.factor@platform.test';
    await createUser(t, root, { email, password: 'Second-password-1', role: 'OPERATOR' });
    const session = (await login(email, 'Second-password-1')).body;
    const enable = await t.http().post('/auth/2fa/enable').set(as(session.jwt));
    const secret = enable.body.secret as string;
    expect(
      (
        await t
          .http()
          .post('/auth/2fa/verify')
          .set(as(session.jwt))
          .send({ code: totp(secret) })
      ).status,
    ).toBe(200);
    const wrong = totp(secret) === '000000' ? '111111' : '000000';
    const tryCodes = async (count: number) => {
      const { tempToken } = (await login(email, 'Second-password-1')).body;
      expect(tempToken).toBeDefined();
      for (let i = 0; i < count; i++) {
        const res = await t
          .http()
          .post('/auth/2fa/authenticate')
          .set('X-Forwarded-For', '198.51.100.1')
          .send({ tempToken, code: wrong });
        expect(res.status).toBe(401);
      }
    };
    // The right password in between does not wipe the count: the holder of a stolen password gets
    // five guesses at the second factor, not five per challenge.
    await tryCodes(3);
    await tryCodes(2);
    const locked = await login(email, 'Second-password-1');
    expect(locked.status).toBe(423);
    expect(locked.body.error.code).toBe('ACCOUNT_LOCKED');
    const elsewhere = await login(email, 'Second-password-1', '203.0.113.7');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.requires2FA).toBe(true);
  });

  it('locks an identifier for the guessing address only, so the only SUPER_ADMIN still logs in', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await login(SUPER_ADMIN.email, 'wrong-password', '192.0.2.66')).status).toBe(401);
    }
    const attacker = await login(SUPER_ADMIN.email, SUPER_ADMIN.password, '192.0.2.66');
    expect(attacker.status).toBe(423);
    expect(attacker.body.error.code).toBe('ACCOUNT_LOCKED');
    expect((await login(SUPER_ADMIN.email, SUPER_ADMIN.password, '192.0.2.10')).status).toBe(200);

    const id = await createUser(t, root, {
      email: 'pair@platform.test',
      password: 'Pair-password-1',
      role: 'VIEWER',
    });
    for (let i = 0; i < 5; i++) {
      expect((await login('pair@platform.test', 'wrong-password', '192.0.2.67')).status).toBe(401);
    }
    expect((await login('pair@platform.test', 'Pair-password-1', '192.0.2.67')).status).toBe(423);
    expect((await t.http().post(`/api/admin/users/${id}/unlock`).set(as(root))).status).toBe(200);
    expect((await login('pair@platform.test', 'Pair-password-1', '192.0.2.67')).status).toBe(200);
  });

  it('locks the whole account past the account-wide threshold, except for known addresses and after a reset by mail', async () => {
    const email = 'spread@platform.test';
    await createUser(t, root, { email, password: 'Spread-password-1', role: 'VIEWER' });
    expect((await login(email, 'Spread-password-1', '192.0.2.1')).status).toBe(200);
    for (const from of ['198.18.0.1', '198.18.0.2']) {
      for (let i = 0; i < 4; i++) expect((await login(email, 'wrong-password', from)).status).toBe(401);
    }
    expect((await login(email, 'wrong-password', '198.18.0.3')).status).toBe(423);
    const stranger = await login(email, 'Spread-password-1', '198.18.0.4');
    expect(stranger.status).toBe(423);
    expect(stranger.body.error.code).toBe('ACCOUNT_LOCKED');
    const [user] = (await t.http().get('/api/admin/users').query({ search: 'spread@' }).set(as(root))).body
      .data;
    expect(user.lockedUntil).not.toBeNull();
    expect((await login(email, 'Spread-password-1', '192.0.2.1')).status).toBe(200);
    expect((await login(email, 'Spread-password-1', '198.18.0.4')).status).toBe(423);

    expect((await t.http().post('/auth/forgot-password').send({ email })).status).toBe(200);
    const mail = await sink.waitFor(email, (m) => m.subject === 'Reset your password');
    const reset = await t
      .http()
      .post('/auth/reset-password')
      .send({
        code: codeFromMail(mail),
        password: 'Spread-password-2',
        passwordConfirmation: 'Spread-password-2',
      });
    expect(reset.status).toBe(200);
    expect((await login(email, 'Spread-password-2', '198.18.0.4')).status).toBe(200);
  });

  it('lifts an address lock set before a password reset by mail', async () => {
    const email = 'forgetful@platform.test';
    await createUser(t, root, { email, password: 'Forgetful-password-1', role: 'VIEWER' });
    for (let i = 0; i < 5; i++) expect((await login(email, 'wrong-password', '192.0.2.90')).status).toBe(401);
    expect((await login(email, 'Forgetful-password-1', '192.0.2.90')).status).toBe(423);
    expect((await t.http().post('/auth/forgot-password').send({ email })).status).toBe(200);
    const mail = await sink.waitFor(email, (m) => m.subject === 'Reset your password');
    const reset = await t
      .http()
      .post('/auth/reset-password')
      .send({
        code: codeFromMail(mail),
        password: 'Forgetful-password-2',
        passwordConfirmation: 'Forgetful-password-2',
      });
    expect(reset.status).toBe(200);
    expect((await login(email, 'wrong-password', '192.0.2.90')).status).toBe(401);
    expect((await login(email, 'Forgetful-password-2', '192.0.2.90')).status).toBe(200);
  });

  it('refuses the account-wide threshold below the address threshold at start', () => {
    expect(() => loadSettings(AuthSettings, { AUTH_ACCOUNT_LOCK_THRESHOLD: '3' })).toThrow(
      /AUTH_ACCOUNT_LOCK_THRESHOLD/,
    );
    expect(loadSettings(AuthSettings, { AUTH_ACCOUNT_LOCK_THRESHOLD: '0' }).AUTH_ACCOUNT_LOCK_THRESHOLD).toBe(
      0,
    );
    expect(loadSettings(AuthSettings, {}).AUTH_ACCOUNT_LOCK_THRESHOLD).toBe(20);
  });

  it('keeps users’ credentials and roles out of reach of a full-access API token', async () => {
    await createUser(t, root, {
      email: 'token.owner@platform.test',
      password: 'Owner-password-1',
      role: 'ADMIN',
    });
    const admin = (await login('token.owner@platform.test', 'Owner-password-1')).body.jwt as string;
    const created = await t
      .http()
      .post('/api/admin/tokens')
      .set(as(admin))
      .send({ name: 'Sync', isFullAccess: true });
    expect(created.status).toBe(201);
    const token = created.body.data.token as string;
    const adminRole = await roleId(t, admin, 'ADMIN');
    const viewerRole = await roleId(t, admin, 'VIEWER');

    const create = await t
      .http()
      .post('/api/admin/users')
      .set(as(token))
      .send({ email: 'minted@platform.test', password: 'Minted-password-1', roleId: adminRole });
    expect(create.status).toBe(403);
    expect(create.body.error.code).toBe('FORBIDDEN');
    expect((await login('minted@platform.test', 'Minted-password-1')).status).toBe(401);

    const target = await createUser(t, admin, {
      email: 'target@platform.test',
      password: 'Target-password-1',
      role: 'VIEWER',
    });
    const promote = await t
      .http()
      .put(`/api/admin/users/${target}/role`)
      .set(as(token))
      .send({ roleId: adminRole });
    expect(promote.status).toBe(403);
    const demote = await t
      .http()
      .put(`/api/admin/users/${target}/role`)
      .set(as(token))
      .send({ roleId: viewerRole });
    expect(demote.status).toBe(403);
    const takeover = await t
      .http()
      .put(`/api/admin/users/${target}`)
      .set(as(token))
      .send({ email: 'attacker@platform.test' });
    expect(takeover.status).toBe(403);
    expect(
      (await t.http().put(`/api/admin/users/${target}`).set(as(token)).send({ username: 'renamed' })).status,
    ).toBe(403);
    const profile = await t
      .http()
      .put(`/api/admin/users/${target}`)
      .set(as(token))
      .send({ email: 'target@platform.test', firstName: 'Tara' });
    expect(profile.status).toBe(200);
    expect(profile.body.data.email).toBe('target@platform.test');
    expect((await t.http().post('/api/admin/tokens').set(as(token)).send({ name: 'Child' })).status).toBe(
      403,
    );
    const byUser = await t
      .http()
      .put(`/api/admin/users/${target}/role`)
      .set(as(admin))
      .send({ roleId: adminRole });
    expect(byUser.status).toBe(200);
  });
});
