import { JwtService } from '../../src/identity/auth/jwt.service';
import { SmtpSink } from '../support/smtp-sink';
import { SUPER_ADMIN, superAdminToken, TestApp } from '../support/test-app';
import { as, bootIdentityApp, createUser, loginFull, queryMaster } from './identity-helpers';

describe('identity: sessions, refresh tokens and the audit of authentication', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootIdentityApp({ env: { SMTP_URL: sink.url } });
    root = await superAdminToken(t);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  const refresh = (refreshToken: unknown) => t.http().post('/auth/refresh-token').send({ refreshToken });

  it('answers the login of the spec', async () => {
    const res = await loginFull(t, SUPER_ADMIN.email, SUPER_ADMIN.password);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      jwt: expect.any(String),
      refreshToken: expect.any(String),
      user: { email: SUPER_ADMIN.email, role: { type: 'SUPER_ADMIN', name: 'Super Admin' } },
      sandbox: { slug: 'main', schemaName: 'public', isMain: true },
    });
    const claims = JSON.parse(Buffer.from(res.body.jwt.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({
      sub: String(res.body.user.id),
      email: SUPER_ADMIN.email,
      role: 'SUPER_ADMIN',
    });
    expect(claims.exp - claims.iat).toBe(86400);
  });

  it('gives the same 401 for a wrong identifier and a wrong password', async () => {
    const unknown = await loginFull(t, 'nobody@platform.test', 'whatever-pass');
    const wrong = await loginFull(t, SUPER_ADMIN.email, 'whatever-pass');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
  });

  it('rotates refresh tokens and revokes the whole family when a rotated one is reused', async () => {
    await createUser(t, root, { email: 'rotor@platform.test', password: 'Rotor-password-1', role: 'VIEWER' });
    const first = await loginFull(t, 'rotor@platform.test', 'Rotor-password-1');
    const r1 = await refresh(first.body.refreshToken);
    expect(r1.status).toBe(200);
    expect(r1.body).toEqual({ jwt: expect.any(String), refreshToken: expect.any(String) });
    expect((await t.http().get('/sandboxes').set(as(r1.body.jwt))).status).toBe(200);
    const r2 = await refresh(r1.body.refreshToken);
    expect(r2.status).toBe(200);

    const reuse = await refresh(first.body.refreshToken);
    expect(reuse.status).toBe(401);
    expect(reuse.body.error.code).toBe('INVALID_TOKEN');
    const newest = await refresh(r2.body.refreshToken);
    expect(newest.status).toBe(401);

    const other = await loginFull(t, 'rotor@platform.test', 'Rotor-password-1');
    expect((await refresh(other.body.refreshToken)).status).toBe(200);
  });

  it('lets at most one of two parallel refreshes with one token succeed', async () => {
    const session = await loginFull(t, 'rotor@platform.test', 'Rotor-password-1');
    const results = await Promise.all([
      refresh(session.body.refreshToken),
      refresh(session.body.refreshToken),
    ]);
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    expect(results.filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(1);
    for (const r of ok) expect((await refresh(r.body.refreshToken)).status).toBe(401);
  });

  it('refuses malformed refresh tokens and logs out by revoking the refresh token', async () => {
    for (const bad of [{}, [], null, true, '']) {
      const res = await refresh(bad);
      expect(res.status).toBe(400);
    }
    expect((await refresh('never-issued')).status).toBe(401);
    const session = await loginFull(t, 'rotor@platform.test', 'Rotor-password-1');
    const out = await t.http().post('/auth/logout').send({ refreshToken: session.body.refreshToken });
    expect(out.status).toBe(200);
    expect((await refresh(session.body.refreshToken)).status).toBe(401);
    expect(
      (await t.http().post('/auth/logout').send({ refreshToken: session.body.refreshToken })).status,
    ).toBe(401);
  });

  it('refuses the tokens of a blocked user and of a deleted one', async () => {
    const id = await createUser(t, root, {
      email: 'gone@platform.test',
      password: 'Gone-password-1',
      role: 'VIEWER',
    });
    const session = await loginFull(t, 'gone@platform.test', 'Gone-password-1');
    expect((await t.http().post(`/api/admin/users/${id}/block`).set(as(root))).status).toBe(200);
    expect((await t.http().get('/sandboxes').set(as(session.body.jwt))).status).toBe(401);
    expect((await refresh(session.body.refreshToken)).status).toBe(401);
    expect((await loginFull(t, 'gone@platform.test', 'Gone-password-1')).status).toBe(401);
    expect((await t.http().post(`/api/admin/users/${id}/unblock`).set(as(root))).status).toBe(200);
    const again = await loginFull(t, 'gone@platform.test', 'Gone-password-1');
    expect(again.status).toBe(200);
    expect((await t.http().delete(`/api/admin/users/${id}`).set(as(root))).status).toBe(204);
    expect((await t.http().get('/sandboxes').set(as(again.body.jwt))).status).toBe(401);
    expect((await t.http().get(`/api/admin/users/${id}`).set(as(root))).status).toBe(404);
    const [row] = await queryMaster<{ deleted_at: Date | null }>(
      t,
      'SELECT deleted_at FROM users WHERE id = $1',
      [id],
    );
    expect(row.deleted_at).not.toBeNull();
  });

  it('refuses an access token once it expires, although it accepted that token before', async () => {
    const claims = JSON.parse(Buffer.from(root.split('.')[1], 'base64url').toString());
    delete claims.iat;
    delete claims.exp;
    const shortLived = t.app.get(JwtService).sign(claims, 2);
    const { exp } = JSON.parse(Buffer.from(shortLived.split('.')[1], 'base64url').toString());
    expect((await t.http().get('/sandboxes').set(as(shortLived))).status).toBe(200);
    expect((await t.http().get('/sandboxes').set(as(shortLived))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 20));
    const late = await t.http().get('/sandboxes').set(as(shortLived));
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('TOKEN_EXPIRED');
    const forged = `${shortLived.slice(0, -4)}${shortLived.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    expect((await t.http().get('/sandboxes').set(as(forged))).body.error.code).toBe('INVALID_TOKEN');
  });

  it('writes login, failed login, logout and refresh-reuse events with address and user agent', async () => {
    const rows = await queryMaster<{
      action: string;
      event: string;
      success: boolean | null;
      ip_address: string;
      user_agent: string | null;
    }>(
      t,
      `SELECT action, metadata->>'event' AS event, (metadata->>'success')::boolean AS success, ip_address, user_agent
         FROM audit_logs WHERE metadata ? 'event'`,
    );
    const events = new Set(rows.map((r) => `${r.action}:${r.event}`));
    for (const expected of [
      'LOGIN:LOGIN_SUCCESS',
      'LOGIN:LOGIN_FAILED',
      'LOGOUT:LOGOUT',
      'LOGOUT:REFRESH_TOKEN_REUSED',
      'CREATE:USER_CREATED',
      'UPDATE:USER_BLOCKED',
    ]) {
      expect(events).toContain(expected);
    }
    const failed = rows.find((r) => r.event === 'LOGIN_FAILED')!;
    expect(failed.success).toBe(false);
    expect(failed.ip_address).toMatch(/127\.0\.0\.1/);
    const secrets = await queryMaster<{ n: number }>(
      t,
      `SELECT count(*)::int AS n FROM audit_logs WHERE changes::text ~* '"(password|passwordHash|token_hash)"'`,
    );
    expect(secrets[0].n).toBe(0);
  });
});
