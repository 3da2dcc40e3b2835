import { clientDatabase, sql } from '../../test/support/pg';
import { SmtpSink } from '../../test/support/smtp-sink';
import { login, ProvisionedClient, provisionClient, TestApp } from '../../test/support/test-app';
import { TenantPools } from '../../src/tenancy/tenant-pools';
import { AccessClaims, JwtService } from '../../src/identity/auth/jwt.service';

/** CREATE DATABASE ... TEMPLATE needs the template idle: background work may reconnect to it, so retry. */
export async function cloneDatabase(admin: string, template: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await sql(admin, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [template]);
    try {
      await sql(admin, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 10) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Clones made at once (BENCH_FLEET_CONCURRENCY). */
const FLEET_CONCURRENCY = Number(process.env.BENCH_FLEET_CONCURRENCY ?? 4);

export interface Fleet {
  /** The client provisioned through the API; its ADMIN signs in to every other client too. */
  first: ProvisionedClient;
  /** Every client's identifier, the first one's included: `<prefix>-0` … `<prefix>-<count-1>`. */
  identifiers: string[];
  /** Seconds it took to make them. */
  seconds: number;
}

/**
 * `count` clients on the app's master database, made fast: one provisioned through the API, the
 * others cloned from its database (`CREATE DATABASE ... TEMPLATE`) and registered in the master
 * with the same login role and password. Clones share the first client's data (its ADMIN, units).
 */
export async function makeFleet(t: TestApp, sink: SmtpSink, count: number, prefix = 'fleet'): Promise<Fleet> {
  const started = Date.now();
  const first = await provisionClient(t, sink, `${prefix}-0`);
  const template = clientDatabase(t.masterDatabase, first.identifier);
  const [row] = await sql<Record<string, unknown>>(t.masterDatabase, 'SELECT * FROM clients WHERE id = $1', [
    first.id,
  ]);
  await t.app.get(TenantPools).close(first.identifier); // so background work leaves the template alone
  const identifiers = [first.identifier];
  const cloneOne = async (identifier: string) => {
    const db = clientDatabase(t.masterDatabase, identifier);
    await cloneDatabase(t.masterDatabase, template, db);
    await sql(
      t.masterDatabase,
      `INSERT INTO clients (identifier, company_name, contact_email, database_host, database_port, database_name, database_username, database_password, server_id, status, max_users, max_sandboxes, provisioned_at)
       VALUES ($1, $1, $2, $3, $4, $5, $6, $7, $8, 'ACTIVE', 50, 3, now())`,
      [
        identifier,
        row.contact_email,
        row.database_host,
        row.database_port,
        db,
        row.database_username,
        row.database_password,
        row.server_id,
      ],
    );
  };
  const rest = Array.from({ length: count - 1 }, (_, i) => `${prefix}-${i + 1}`);
  let next = 0;
  // A few clones at once: each is mostly waiting for PostgreSQL to copy and log the template's pages.
  await Promise.all(
    Array.from({ length: Math.min(FLEET_CONCURRENCY, rest.length) }, async () => {
      while (next < rest.length) await cloneOne(rest[next++]);
    }),
  );
  identifiers.push(...rest);
  return { first, identifiers, seconds: (Date.now() - started) / 1000 };
}

/**
 * An access token of the first client's ADMIN for every client of the fleet. The clones share that
 * user (same id, role and token version), so one real sign-in gives the claims and the app's own
 * JwtService signs them for each client, as a sign-in there would: 1,000 sign-ins (a password hash
 * each) would take minutes of the bench's set-up and measure nothing.
 */
export async function fleetTokens(t: TestApp, fleet: Fleet): Promise<Map<string, string>> {
  const signed = await login(t, fleet.first.adminEmail, fleet.first.adminPassword, fleet.first.identifier);
  const jwt = t.app.get(JwtService);
  const { sub, email, role, companyId, tv }: AccessClaims = jwt.verify(signed);
  return new Map(fleet.identifiers.map((cid) => [cid, jwt.sign({ sub, email, role, companyId, tv, cid })]));
}
