import autocannon from 'autocannon';
import { clientDatabase, sql } from '../test/support/pg';
import { SmtpSink } from '../test/support/smtp-sink';
import { bootApp, provisionClient } from '../test/support/test-app';
import { databaseUrl } from '../test/support/test-env';
import { BENCH_SECRETS, fmt, withBenchRun } from './bench-env';
import { startChild } from './child';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);

interface Load {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(url: string, headers: Record<string, string>, duration = DURATION_S): Promise<Load> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Sequential requests, to count the SQL statements the app sends per request. */
async function statementsPerRequest(
  url: string,
  headers: Record<string, string>,
  count: () => Promise<number>,
): Promise<number> {
  const before = await count();
  const n = 200;
  for (let i = 0; i < n; i++) {
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`bench request answered ${res.status}`);
    await res.arrayBuffer();
  }
  return ((await count()) - before) / n;
}

/**
 * GET /api/units (authenticated, tenant-scoped, paged) on the real app beside a bare node:http + pg
 * server that verifies the same JWT and runs the same query, both in child processes.
 */
export async function benchHttp(): Promise<void> {
  const sink = await new SmtpSink().start();
  const env = { SMTP_URL: sink.url, ...BENCH_SECRETS };
  const setup = await bootApp({ env });
  const client = await provisionClient(setup, sink, 'bench');
  const db = clientDatabase(setup.masterDatabase, 'bench');
  await sql(
    db,
    `INSERT INTO units (name, code, capacity_mw, company_id) SELECT 'Unit ' || g, 'U-' || g, g * 1.5, 1 FROM generate_series(1, 60) g`,
  );
  const sandbox = await setup
    .http()
    .post('/sandboxes')
    .set({ 'X-Client-ID': 'bench', Authorization: `Bearer ${client.adminToken}` })
    .send({ name: 'perf', copyData: true });
  if (sandbox.status !== 201) throw new Error(`sandbox: ${sandbox.status}`);
  const appEnv = {
    ...setup.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    MULTITENANCY_DATABASE_AUTO_MIGRATE: 'false',
  };
  await setup.close();
  await sink.stop();

  const nest = await startChild('nest-server', { BENCH_APP_ENV: JSON.stringify(appEnv) });
  const bare = await startChild('bare-server', {
    JWT_SECRET: BENCH_SECRETS.JWT_SECRET,
    BENCH_CLIENT_DB_URL: databaseUrl(db),
  });
  try {
    const auth = { Authorization: `Bearer ${client.adminToken}` };
    const nestHeaders = { ...auth, 'X-Client-ID': 'bench' };
    const nestUrl = `http://127.0.0.1:${nest.port}/api/units?page=1&pageSize=25`;
    const bareUrl = `http://127.0.0.1:${bare.port}/api/units`;
    const statements = async () => (await nest.ask<{ statements: number }>('statements')).statements;
    const prodStatements = await statementsPerRequest(nestUrl, nestHeaders, statements);
    const sandboxStatements = await statementsPerRequest(
      nestUrl,
      { ...nestHeaders, 'X-Tenant-ID': 'sandbox_perf' },
      statements,
    );

    await load(bareUrl, auth, 3);
    await load(nestUrl, nestHeaders, 3);
    const baseline = await load(bareUrl, auth);
    const app = await load(nestUrl, nestHeaders);
    const sandboxed = await load(nestUrl, { ...nestHeaders, 'X-Tenant-ID': 'sandbox_perf' });
    const ratio = app.rps / baseline.rps;

    console.log(`\nHTTP: GET /api/units (25 of 60 rows), ${CONNECTIONS} connections, ${DURATION_S} s each`);
    console.log(
      `  bare node:http + jsonwebtoken + pg : ${fmt(baseline.rps, 0)} req/s, p99 ${baseline.p99} ms`,
    );
    console.log(
      `  Nest app, production schema       : ${fmt(app.rps, 0)} req/s, p99 ${app.p99} ms (non-2xx ${app.non2xx}, errors ${app.errors})`,
    );
    console.log(
      `  Nest app, sandbox schema          : ${fmt(sandboxed.rps, 0)} req/s, p99 ${sandboxed.p99} ms (non-2xx ${sandboxed.non2xx})`,
    );
    console.log(
      `  ratio Nest / bare                 : ${fmt(ratio, 2)}  (target >= 0.40: ${ratio >= 0.4 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `  p99 at ${CONNECTIONS} connections          : ${app.p99} ms (target < 50 ms: ${app.p99 < 50 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `  SQL statements per request        : production ${fmt(prodStatements, 2)}, sandbox ${fmt(sandboxStatements, 2)} (production pays no search_path round trip)`,
    );
  } finally {
    await nest.stop();
    await bare.stop();
  }
}

if (require.main === module) {
  void withBenchRun(benchHttp).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
