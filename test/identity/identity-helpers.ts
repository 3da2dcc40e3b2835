import { Client } from 'pg';
import { databaseUrl } from '../support/test-env';
import { bootApp, TestApp } from '../support/test-app';

export type RoleType = 'SUPER_ADMIN' | 'ADMIN' | 'MANAGER' | 'OPERATOR' | 'VIEWER';

/** Headers for a request as `token` under `client` (master when absent). */
export function as(token: string, client?: string): Record<string, string> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (client) headers['X-Client-ID'] = client;
  return headers;
}

export async function roleId(
  t: TestApp,
  adminToken: string,
  type: RoleType,
  client?: string,
): Promise<number> {
  const res = await t.http().get('/api/admin/roles').set(as(adminToken, client));
  if (res.status !== 200) throw new Error(`roles: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.find((r: { type: string }) => r.type === type).id;
}

/** Creates a user with a password through the admin API; returns its id. */
export async function createUser(
  t: TestApp,
  adminToken: string,
  user: { email: string; password: string; role: RoleType; companyId?: number },
  client?: string,
): Promise<number> {
  const res = await t
    .http()
    .post('/api/admin/users')
    .set(as(adminToken, client))
    .send({
      email: user.email,
      password: user.password,
      roleId: await roleId(t, adminToken, user.role, client),
      ...(user.companyId ? { companyId: user.companyId } : {}),
    });
  if (res.status !== 201) throw new Error(`create user: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export async function loginFull(t: TestApp, identifier: string, password: string, client?: string) {
  const req = t.http().post('/auth/local').send({ identifier, password });
  if (client) req.set('X-Client-ID', client);
  return req;
}

/** Runs SQL against the master database of a test app (to look at what the API wrote). */
export async function queryMaster<T = Record<string, unknown>>(
  t: TestApp,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const pg = new Client({ connectionString: databaseUrl(t.masterDatabase) });
  await pg.connect();
  try {
    return (await pg.query(sql, params)).rows as T[];
  } finally {
    await pg.end();
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function bootIdentityApp(options: Parameters<typeof bootApp>[0] = {}): Promise<TestApp> {
  return bootApp(options);
}
