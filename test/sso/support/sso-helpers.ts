import { Client as PgClient } from 'pg';
import { databaseUrl } from '../../support/test-env';
import { TestApp } from '../../support/test-app';

/** Reads a client's database directly (assertions on audit rows and users; never writes). */
export async function queryClientDb<T = Record<string, unknown>>(
  t: TestApp,
  client: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const pg = new PgClient({ connectionString: databaseUrl(`${t.masterDatabase}_${client}`) });
  await pg.connect();
  try {
    return (await pg.query(sql, params)).rows as T[];
  } finally {
    await pg.end();
  }
}

export async function createProvider(
  t: TestApp,
  client: string,
  token: string,
  body: Record<string, unknown>,
): Promise<number> {
  const res = await t
    .http()
    .post('/api/admin/identity-providers')
    .set('X-Client-ID', client)
    .set('Authorization', `Bearer ${token}`)
    .send(body);
  if (res.status !== 201) throw new Error(`create provider: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export async function authorize(t: TestApp, client: string, body: Record<string, unknown>) {
  const res = await t.http().post('/auth/sso/authorize').set('X-Client-ID', client).send(body);
  if (res.status !== 200) throw new Error(`authorize: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { authorizationUrl: string; state: string };
}

export const auditEvents = (t: TestApp, client: string, event: string) =>
  queryClientDb<{ action: string; user_id: number | null; metadata: Record<string, unknown> }>(
    t,
    client,
    `SELECT action, user_id, metadata FROM audit_logs WHERE metadata->>'event' = $1 ORDER BY id`,
    [event],
  );
