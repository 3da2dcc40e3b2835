import autocannon from 'autocannon';
import { sql } from '../../test/support/pg';
import { SmtpSink } from '../../test/support/smtp-sink';
import { bootApp, login } from '../../test/support/test-app';
import { BENCH_SECRETS, fmt, runAlone } from '../bench-env';
import { startChild } from '../child';
import { makeFleet } from './fleet';

const TENANTS = Number(process.env.BENCH_TENANTS ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CEILING = 60; // the shipped TENANT_CONNECTION_CEILING and TENANT_POOL_MAX
const APP = 'svc-platform:load-%';

interface Load {
  rps: number;
  p99: number;
  non2xx: number;
}

/** GET /api/units for `DURATION_S` at `CONNECTIONS`, each request to the next client of `ids`. */
async function load(port: number, ids: string[], tokens: Map<string, string>, duration = DURATION_S) {
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
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
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx } satisfies Load;
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

/**
 * `TENANTS` clients (cloned from one provisioned client) on one API process with the shipped pool
 * settings: the same read load on one client and spread over all of them, in the same run.
 */
export async function main(): Promise<void> {
  const sink = await new SmtpSink().start();
  const limits = { AUTH_LOGIN_LIMIT_PER_IDENTIFIER: '1000000', AUTH_LOGIN_LIMIT_PER_ADDRESS: '1000000' };
  const setup = await bootApp({ env: { SMTP_URL: sink.url, ...BENCH_SECRETS, ...limits } });
  const fleet = await makeFleet(setup, sink, TENANTS, 'load');
  await new Promise((r) => setTimeout(r, 5500)); // the registry's fallback refresh picks up the clones
  const tokens = new Map<string, string>();
  for (const id of fleet.identifiers) {
    tokens.set(id, await login(setup, fleet.first.adminEmail, fleet.first.adminPassword, id));
  }
  const appEnv = {
    ...setup.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    MULTITENANCY_DATABASE_AUTO_MIGRATE: 'false',
    QUEUE_PROCESSORS_ENABLED: 'false', // API processes; background passes run in workers
  };
  await setup.close();
  await sink.stop();

  const server = await startChild('nest-server', { BENCH_APP_ENV: JSON.stringify(appEnv) });
  let serverStopped = false;
  let idle: Awaited<ReturnType<typeof startChild>> | undefined;
  try {
    const one = [fleet.identifiers[0]];
    await load(server.port, one, tokens, 3);
    await load(server.port, fleet.identifiers, tokens, 3);
    const single = await load(server.port, one, tokens);
    const [spread, most] = await sampled(setup.masterDatabase, load(server.port, fleet.identifiers, tokens));

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
      `\nTenants: GET /api/units, ${CONNECTIONS} connections, ${DURATION_S} s each, ${TENANTS} clients (made in ${fmt(fleet.seconds, 0)} s), shipped pool settings`,
    );
    console.log(
      `  one client           : ${fmt(single.rps, 0)} req/s, p99 ${single.p99} ms (non-2xx ${single.non2xx})`,
    );
    console.log(
      `  spread over ${TENANTS} : ${fmt(spread.rps, 0)} req/s, p99 ${spread.p99} ms (non-2xx ${spread.non2xx})`,
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
      `  idle second process  : ${idleHeld} client connections by its metrics, ${afterStop} in pg_stat_activity once the loaded one stopped (target 0: ${idleHeld === 0 && afterStop === 0 ? 'met' : 'NOT met'})`,
    );
  } finally {
    if (!serverStopped) await server.stop();
    await idle?.stop();
  }
}

if (require.main === module) runAlone(main);
