import { sql } from '../test/support/pg';
import { SmtpSink } from '../test/support/smtp-sink';
import { bootApp, login } from '../test/support/test-app';
import { withBenchRun } from './bench-env';
import { makeFleet } from './tenants/fleet';

const CLIENTS = Number(process.env.BENCH_POOL_CLIENTS ?? 200);
const CEILING = 20;

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
    const { first, seconds } = await makeFleet(t, sink, CLIENTS, 'pool');
    await new Promise((r) => setTimeout(r, 5500)); // the registry's fallback refresh picks up the rows inserted above
    const prepared = seconds;

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
