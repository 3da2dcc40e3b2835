import bcrypt from 'bcrypt';
import { Client as PgClient } from 'pg';
import { parseDatabaseUrl, withAdminConnection } from '../../src/database/data-source-factory';
import { SmtpSink } from '../support/smtp-sink';
import { ADMIN_URL } from '../support/test-env';
import { bootApp, login, provisionClient, ProvisionedClient, TestApp } from '../support/test-app';

export type OtherRole = 'MANAGER' | 'OPERATOR' | 'VIEWER';

export interface AuditTenant {
  t: TestApp;
  sink: SmtpSink;
  client: ProvisionedClient;
  /** The client's database (and login role) name. */
  database: string;
  tokens: Record<'ADMIN' | OtherRole, string>;
  /** Runs `fn` on a superuser connection to the client's database. */
  admin: <T>(fn: (pg: PgClient) => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
}

export const PASSWORD = 'Role-user-pass1';

/** Boots the app, provisions a client and logs in one user of each role (inserted with SQL). */
export async function auditTenant(
  identifier: string,
  roles: OtherRole[] = [],
  env: Record<string, string> = {},
): Promise<AuditTenant> {
  const sink = await new SmtpSink().start();
  const t = await bootApp({ env: { SMTP_URL: sink.url, ...env } });
  const client = await provisionClient(t, sink, identifier);
  const database = `${t.masterDatabase}_${identifier}`.replace(/-/g, '_');
  const target = { ...parseDatabaseUrl(ADMIN_URL), database };
  const admin = <T>(fn: (pg: PgClient) => Promise<T>) => withAdminConnection(target, fn);
  const tokens = { ADMIN: client.adminToken } as AuditTenant['tokens'];
  const hash = await bcrypt.hash(PASSWORD, 4);
  for (const role of roles) {
    const email = `${role.toLowerCase()}@${identifier}.test`;
    await admin((pg) =>
      pg.query(
        `INSERT INTO users (email, username, first_name, last_name, password_hash, role_id, company_id)
         SELECT $1, $2, 'Test', $3, $4, (SELECT id FROM roles WHERE type = $5), (SELECT min(id) FROM companies)`,
        [email, role.toLowerCase(), role, hash, role],
      ),
    );
    tokens[role] = await login(t, email, PASSWORD, identifier);
  }
  return {
    t,
    sink,
    client,
    database,
    tokens,
    admin,
    close: async () => {
      await t.close();
      await sink.stop();
    },
  };
}

/** An authenticated GET under the tenant's client header. */
export function get(tenant: AuditTenant, path: string, role: keyof AuditTenant['tokens'] = 'ADMIN') {
  return tenant.t
    .http()
    .get(path)
    .set('X-Client-ID', tenant.client.identifier)
    .set('Authorization', `Bearer ${tenant.tokens[role]}`);
}

/** Polls until `check` passes (for entries written after the answer, like recorded errors). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
