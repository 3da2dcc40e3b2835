import autocannon from 'autocannon';
import { Client as PgConnection } from 'pg';
import { clientDatabase, sql } from '../../test/support/pg';
import { databaseUrl } from '../../test/support/test-env';
import { SmtpSink } from '../../test/support/smtp-sink';
import { bootApp } from '../../test/support/test-app';
import { BENCH_SECRETS, fmt, runAlone } from '../bench-env';
import { startChild } from '../child';
import { fleetTokens, makeFleet } from './fleet';
import { benchEntry } from './own-cluster';

const TENANTS = Number(process.env.BENCH_TENANTS ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
/** The shipped TENANT_CONNECTION_CEILING and TENANT_POOL_MAX unless an operator's tuning is benched. */
const CEILING = Number(process.env.BENCH_TENANT_CONNECTION_CEILING ?? 60);
const POOL_MAX = Number(process.env.BENCH_TENANT_POOL_MAX ?? 5);
const APP = 'svc-platform:load-%';

interface Load {
  rps: number;
  total: number;
  p99: number;
  non2xx: number;
}

/** GET /api/units for `DURATION_S` at `CONNECTIONS`, each request to the next client of `ids`. */
async function load(
  port: number,
  ids: string[],
  tokens: Map<string, string>,
  run: { duration: number } | { amount: number } = { duration: DURATION_S },
) {
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    ...run,
    requests: [
      {
        method: 'GET',
        path: '/api/units?page=1&pageSize=25',
        setupRequest: (req: { headers?: Record<string, string> }) => {
          const id = ids[next++ % ids.length];
          return { ...req, headers: { 'X-Client-ID': id, Authorization: `Bearer ${tokens.get(id)}` } };
        },
      },
    ],
  } as autocannon.Options);
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  } satisfies Load;
}

/**
 * The floor under the spread load, with no app: each of `CONNECTIONS` loops connects to the next
 * client database, runs the list's query and disconnects, as the app must when nearly every request
 * finds no idle connection to its client. The app cannot serve the spread load faster than this.
 */
async function bareConnectPerRequest(databases: string[]): Promise<Load> {
  let next = 0;
  let done = 0;
  const latencies: number[] = [];
  const end = Date.now() + DURATION_S * 1000;
  const loop = async () => {
    while (Date.now() < end) {
      const started = performance.now();
      const connection = new PgConnection({
        connectionString: databaseUrl(databases[next++ % databases.length]),
        application_name: 'bench-bare',
        options: '-c search_path=public',
      });
      await connection.connect();
      await connection.query('SELECT *, count(*) OVER () AS total FROM units ORDER BY id LIMIT 25');
      await connection.end();
      latencies.push(performance.now() - started);
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  latencies.sort((a, b) => a - b);
  const p99 = Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]);
  return { rps: done / DURATION_S, total: done, p99, non2xx: 0 };
}

async function clientConnections(master: string): Promise<number> {
  const [{ n }] = await sql<{ n: string }>(
    master,
    'SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE $1',
    [APP],
  );
  return Number(n);
}

/** Samples the client connections every 100 ms while `work` runs; answers the most seen. */
async function sampled<T>(master: string, work: Promise<T>): Promise<[T, number]> {
  let most = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      most = Math.max(most, await clientConnections(master));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const result = await work.finally(() => (running = false));
  await sampler;
  return [result, most];
}

/** The loaded process's connection counters, from its /metrics. */
async function connectionFigures(port: number) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const figure = (line: string) =>
    Number(new RegExp(`^${line.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
  return {
    opens: figure('tenant_connection_opens_total'),
    idle: figure('tenant_connection_evictions_total{reason="idle"}'),
    ceiling: figure('tenant_connection_evictions_total{reason="ceiling"}'),
  };
}

/**
 * `TENANTS` clients (cloned from one provisioned client) on one API process with the shipped pool
 * settings: the same read load on one client and spread over all of them, in the same run.
 */
export async function main(): Promise<void> {
  const sink = await new SmtpSink().start();
  const limits = { AUTH_LOGIN_LIMIT_PER_IDENTIFIER: '1000000', AUTH_LOGIN_LIMIT_PER_ADDRESS: '1000000' };
  const setup = await bootApp({ env: { SMTP_URL: sink.url, ...BENCH_SECRETS, ...limits } });
  const fleet = await makeFleet(setup, sink, TENANTS, 'load');
  // The server's registered maxConnections is each process's budget there (TENANT_SERVER_PROCESSES 1):
  // an operator who raises the ceiling past it raises it too.
  await sql(
    setup.masterDatabase,
    'UPDATE database_servers SET max_connections = greatest(max_connections, $1)',
    [CEILING],
  );
  await new Promise((r) => setTimeout(r, 5500)); // the registry's fallback refresh picks up the clones
  const tokens = await fleetTokens(setup, fleet);
  const appEnv = {
    ...setup.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    MULTITENANCY_DATABASE_AUTO_MIGRATE: 'false',
    QUEUE_PROCESSORS_ENABLED: 'false', // API processes; background passes run in workers
    TENANT_CONNECTION_CEILING: String(CEILING),
    TENANT_POOL_MAX: String(POOL_MAX),
  };
  await setup.close();
  await sink.stop();
  // Before the API starts, so the two never hold connections at once (PostgreSQL's 100 are shared).
  const bare = await bareConnectPerRequest(
    fleet.identifiers.map((id) => clientDatabase(setup.masterDatabase, id)),
  );

  const server = await startChild('nest-server', { BENCH_APP_ENV: JSON.stringify(appEnv) });
  let serverStopped = false;
  let idle: Awaited<ReturnType<typeof startChild>> | undefined;
  try {
    const one = [fleet.identifiers[0]];
    await load(server.port, one, tokens, { duration: 3 });
    // Every client once at least, so a ceiling that holds them all starts the measure warm.
    await load(server.port, fleet.identifiers, tokens, { amount: Math.max(TENANTS, CONNECTIONS * 10) });
    const single = await load(server.port, one, tokens);
    const before = await connectionFigures(server.port);
    const [spread, most] = await sampled(setup.masterDatabase, load(server.port, fleet.identifiers, tokens));
    const after = await connectionFigures(server.port);

    idle = await startChild('nest-server', { BENCH_APP_ENV: JSON.stringify(appEnv) });
    await new Promise((r) => setTimeout(r, 3000));
    const metrics = await (await fetch(`http://127.0.0.1:${idle.port}/metrics`)).text();
    const idleHeld = Number(/^tenant_connections_open (\d+)/m.exec(metrics)?.[1]);
    await server.stop();
    serverStopped = true;
    await new Promise((r) => setTimeout(r, 500));
    const afterStop = await clientConnections(setup.masterDatabase);

    const ratio = spread.rps / single.rps;
    const p99Ratio = spread.p99 / single.p99;
    console.log(
      `\nTenants: GET /api/units, ${CONNECTIONS} connections, ${DURATION_S} s each, ${TENANTS} clients (made in ${fmt(fleet.seconds, 0)} s), TENANT_CONNECTION_CEILING ${CEILING}, TENANT_POOL_MAX ${POOL_MAX}`,
    );
    console.log(
      `  one client           : ${fmt(single.rps, 0)} req/s, p99 ${single.p99} ms (non-2xx ${single.non2xx})`,
    );
    console.log(
      `  spread over ${TENANTS} : ${fmt(spread.rps, 0)} req/s, p99 ${spread.p99} ms (non-2xx ${spread.non2xx})`,
    );
    console.log(
      `  bare pg, no app      : ${fmt(bare.rps, 0)} connect+query+disconnect/s to the next client database, p99 ${bare.p99} ms (ratio to one client ${fmt(bare.rps / single.rps, 2)}: the most the spread load can reach when the ceiling holds fewer connections than clients)`,
    );
    console.log(
      `  throughput ratio     : ${fmt(ratio, 2)} (target >= 0.5: ${ratio >= 0.5 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `  p99 ratio            : ${fmt(p99Ratio, 2)} (target <= 2: ${p99Ratio <= 2 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `  client connections   : at most ${most} in pg_stat_activity (ceiling ${CEILING}: ${most <= CEILING ? 'held' : 'EXCEEDED'})`,
    );
    console.log(
      `  during the spread    : ${after.opens - before.opens} connections opened for ${spread.total} requests, evictions idle ${after.idle - before.idle}, ceiling ${after.ceiling - before.ceiling}`,
    );
    console.log(
      `  idle second process  : ${idleHeld} client connections by its metrics, ${afterStop} in pg_stat_activity once the loaded one stopped (target 0: ${idleHeld === 0 && afterStop === 0 ? 'met' : 'NOT met'})`,
    );
  } finally {
    if (!serverStopped) await server.stop();
    await idle?.stop();
  }
}

if (require.main === module) benchEntry(__filename, () => runAlone(main));
