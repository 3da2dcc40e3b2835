import speakeasy from 'speakeasy';
import { superAdminToken, TestApp } from '../support/test-app';
import { as, bootIdentityApp, createUser, loginFull, queryMaster } from './identity-helpers';

/** A code of the step `offset` steps from now (the server accepts two steps either side here). */
const totp = (secret: string, offset = 0) =>
  speakeasy.totp({ secret, encoding: 'base32', time: Math.floor(Date.now() / 1000) + offset * 30 });

describe('identity: two-factor authentication', () => {
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    t = await bootIdentityApp({ env: { TWO_FACTOR_WINDOW: '2', AUTH_2FA_LIMIT: '5' } });
    root = await superAdminToken(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function enrol(email: string, password: string) {
    await createUser(t, root, { email, password, role: 'OPERATOR' });
    const session = await loginFull(t, email, password);
    const enable = await t.http().post('/auth/2fa/enable').set(as(session.body.jwt));
    expect(enable.status).toBe(200);
    return {
      jwt: session.body.jwt as string,
      ...(enable.body as { secret: string; qrCodeUrl: string; recoveryCodes: string[] }),
    };
  }

  it('enrols, logs in with a TOTP code, refuses a replayed code and accepts a recovery code once', async () => {
    const email = 'totp@platform.test';
    const { jwt, secret, qrCodeUrl, recoveryCodes } = await enrol(email, 'Totp-password-1');
    expect(qrCodeUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(qrCodeUrl).toContain(`secret=${secret}`);
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/);

    const [stored] = await queryMaster<{
      two_factor_pending_secret: string;
      two_factor_pending_recovery_hashes: string[];
    }>(
      t,
      'SELECT two_factor_pending_secret, two_factor_pending_recovery_hashes FROM users WHERE email = $1',
      [email],
    );
    expect(stored.two_factor_pending_secret).not.toContain(secret);
    expect(stored.two_factor_pending_recovery_hashes.join()).not.toContain(recoveryCodes[0]);

    const pendingLogin = await loginFull(t, email, 'Totp-password-1');
    expect(pendingLogin.body.jwt).toBeDefined();

    const wrongVerify = await t
      .http()
      .post('/auth/2fa/verify')
      .set(as(jwt))
      .send({ code: '000000' === totp(secret) ? '111111' : '000000' });
    expect(wrongVerify.status).toBe(400);
    const badShape = await t.http().post('/auth/2fa/verify').set(as(jwt)).send({ code: 123456 });
    expect(badShape.status).toBe(400);
    expect(badShape.body.error.code).toBe('VALIDATION_ERROR');
    const verify = await t
      .http()
      .post('/auth/2fa/verify')
      .set(as(jwt))
      .send({ code: totp(secret, -1) });
    expect(verify.status).toBe(200);
    expect(verify.body).toEqual({ data: { enabled: true } });

    const partial = await loginFull(t, email, 'Totp-password-1');
    expect(partial.status).toBe(200);
    expect(partial.body).toEqual({ requires2FA: true, tempToken: expect.any(String) });
    const tempToken = partial.body.tempToken as string;

    const asBearer = await t.http().get('/sandboxes').set(as(tempToken));
    expect(asBearer.status).toBe(403);
    expect(asBearer.body.error.code).toBe('2FA_REQUIRED');
    const enableWithTemp = await t.http().post('/auth/2fa/enable').set(as(tempToken));
    expect(enableWithTemp.status).toBe(403);
    expect(enableWithTemp.body.error.code).toBe('2FA_REQUIRED');

    const code = totp(secret, 0);
    const done = await t.http().post('/auth/2fa/authenticate').send({ tempToken, code });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      jwt: expect.any(String),
      refreshToken: expect.any(String),
      user: { email },
    });
    expect((await t.http().get('/sandboxes').set(as(done.body.jwt))).status).toBe(200);

    const usedAgain = await t
      .http()
      .post('/auth/2fa/authenticate')
      .send({ tempToken, code: totp(secret, 1) });
    expect(usedAgain.status).toBe(401);

    const second = await loginFull(t, email, 'Totp-password-1');
    const replay = await t
      .http()
      .post('/auth/2fa/authenticate')
      .send({ tempToken: second.body.tempToken, code });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('INVALID_CREDENTIALS');

    const recovered = await t
      .http()
      .post('/auth/2fa/recover')
      .send({ tempToken: second.body.tempToken, recoveryCode: recoveryCodes[0].toLowerCase() });
    expect(recovered.status).toBe(200);
    expect(recovered.body.jwt).toEqual(expect.any(String));

    const third = await loginFull(t, email, 'Totp-password-1');
    const recoveredTwice = await t
      .http()
      .post('/auth/2fa/recover')
      .send({ tempToken: third.body.tempToken, recoveryCode: recoveryCodes[0] });
    expect(recoveredTwice.status).toBe(401);

    const disable = await t
      .http()
      .post('/auth/2fa/disable')
      .set(as(recovered.body.jwt))
      .send({ code: totp(secret, 2) });
    expect(disable.status).toBe(200);
    expect(disable.body).toEqual({ data: { enabled: false } });
    const plain = await loginFull(t, email, 'Totp-password-1');
    expect(plain.body.jwt).toEqual(expect.any(String));

    const events = await queryMaster<{ event: string }>(
      t,
      `SELECT metadata->>'event' AS event FROM audit_logs WHERE username = $1 OR entity_id = $2`,
      [email, done.body.user.id],
    );
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        'TWO_FACTOR_ENABLED',
        'TWO_FACTOR_DISABLED',
        'LOGIN_2FA_REQUIRED',
        'LOGIN_SUCCESS',
      ]),
    );
  });

  it('ends a challenge after five wrong codes and rate-limits /auth/2fa/authenticate', async () => {
    const email = 'wrongcodes@platform.test';
    const { jwt, secret } = await enrol(email, 'Wrong-password-1');
    expect(
      (
        await t
          .http()
          .post('/auth/2fa/verify')
          .set(as(jwt))
          .send({ code: totp(secret) })
      ).status,
    ).toBe(200);
    const { tempToken } = (await loginFull(t, email, 'Wrong-password-1')).body;
    const wrong = totp(secret) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await t.http().post('/auth/2fa/authenticate').send({ tempToken, code: wrong });
      expect(res.status).toBe(401);
    }
    const limited = await t
      .http()
      .post('/auth/2fa/authenticate')
      .send({ tempToken, code: totp(secret, 1) });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    const [{ n }] = await queryMaster<{ n: number }>(
      t,
      `SELECT count(*)::int AS n FROM audit_logs WHERE username = $1 AND metadata->>'event' = 'LOGIN_FAILED'`,
      [email],
    );
    expect(n).toBe(5);
  });

  it('ends a challenge after five wrong codes even before the rate limit', async () => {
    const limited = await bootIdentityApp({
      masterDatabase: t.masterDatabase,
      env: { TWO_FACTOR_WINDOW: '2', AUTH_2FA_LIMIT: '50' },
    });
    try {
      const email = 'challenge@platform.test';
      const { jwt, secret } = await enrol(email, 'Challenge-password-1');
      expect(
        (
          await t
            .http()
            .post('/auth/2fa/verify')
            .set(as(jwt))
            .send({ code: totp(secret) })
        ).status,
      ).toBe(200);
      const { tempToken } = (await loginFull(limited, email, 'Challenge-password-1')).body;
      const wrong = totp(secret) === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) {
        expect(
          (await limited.http().post('/auth/2fa/authenticate').send({ tempToken, code: wrong })).status,
        ).toBe(401);
      }
      const ended = await limited
        .http()
        .post('/auth/2fa/authenticate')
        .send({ tempToken, code: totp(secret, 1) });
      expect(ended.status).toBe(401);
      expect(ended.body.error.code).toBe('INVALID_TOKEN');
    } finally {
      await limited.close();
    }
  });
});
