import { clientDatabase, sql } from '../test/support/pg';
import { SmtpSink } from '../test/support/smtp-sink';
import { bootApp, login, provisionClient } from '../test/support/test-app';
import { TenantPools } from '../src/tenancy/tenant-pools';
import { withBenchRun } from './bench-env';

const CLIENTS = Number(process.env.BENCH_POOL_CLIENTS ?? 200);
const CEILING = 20;

/** CREATE DATABASE ... TEMPLATE needs the template idle: background work may reconnect to it, so retry. */
async function cloneDatabase(admin: string, template: string, name: string): Promise<void> {
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

/**
 * 200 provisioned clients (one provisioned through the API, the rest cloned from its database and
 * registered) touched in turn: the PostgreSQL connections the app holds never exceed the ceiling.
 */
export async function benchPools(): Promise<void> {
  const sink = await new SmtpSink().start();
  const t = await bootApp({
    env: { SMTP_URL: sink.url, TENANT_POOL_MAX: '2', TENANT_CONNECTION_CEILING: String(CEILING) },
  });
  try {
    const first = await provisionClient(t, sink, 'pool-0');
    const template = clientDatabase(t.masterDatabase, 'pool-0');
    const [row] = await sql<Record<string, unknown>>(
      t.masterDatabase,
      'SELECT * FROM clients WHERE id = $1',
      [first.id],
    );
    await t.app.get(TenantPools).close('pool-0'); // so background pollers leave the template alone
    const started = Date.now();
    for (let i = 1; i < CLIENTS; i++) {
      const identifier = `pool-${i}`;
      const db = clientDatabase(t.masterDatabase, identifier);
      await cloneDatabase(t.masterDatabase, template, db);
      await sql(
        t.masterDatabase,
        `INSERT INTO clients (identifier, company_name, contact_email, database_host, database_port, database_name, database_username, database_password, status, max_users, max_sandboxes, provisioned_at)
         VALUES ($1, $1, $2, $3, $4, $5, $6, $7, 'ACTIVE', 50, 3, now())`,
        [
          identifier,
          row.contact_email,
          row.database_host,
          row.database_port,
          db,
          row.database_username,
          row.database_password,
        ],
      );
    }
    await new Promise((r) => setTimeout(r, 5500)); // the registry's fallback refresh picks up the rows inserted above
    const prepared = (Date.now() - started) / 1000;

    let maxConnections = 0;
    let maxPools = 0;
    const touchStarted = Date.now();
    for (let i = 0; i < CLIENTS; i++) {
      const identifier = `pool-${i}`;
      const token = await login(t, first.adminEmail, first.adminPassword, identifier);
      const res = await t
        .http()
        .get('/api/units')
        .set({ 'X-Client-ID': identifier, Authorization: `Bearer ${token}` });
      if (res.status !== 200) throw new Error(`${identifier}: ${res.status} ${JSON.stringify(res.body)}`);
      const [{ count }] = await sql<{ count: string }>(
        t.masterDatabase,
        `SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'svc-platform:pool-%'`,
      );
      maxConnections = Math.max(maxConnections, Number(count));
      const metrics = await t.http().get('/metrics');
      maxPools = Math.max(maxPools, Number(/tenant_pools_open (\d+)/.exec(metrics.text)?.[1] ?? 0));
    }
    console.log(
      `\nPools: ${CLIENTS} clients (prepared in ${prepared.toFixed(0)} s) touched in turn, TENANT_POOL_MAX=2, TENANT_CONNECTION_CEILING=${CEILING}`,
    );
    console.log(
      `  most client connections held at once : ${maxConnections} (ceiling ${CEILING}: ${maxConnections <= CEILING ? 'held' : 'EXCEEDED'})`,
    );
    console.log(`  most pools open at once              : ${maxPools}`);
    console.log(
      `  login + list per client              : ${((Date.now() - touchStarted) / CLIENTS).toFixed(1)} ms`,
    );
  } finally {
    await t.close();
    await sink.stop();
  }
}

if (require.main === module) {
  void withBenchRun(benchPools).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
