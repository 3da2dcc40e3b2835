import autocannon from 'autocannon';
import { Client as PgConnection } from 'pg';
import { clientDatabase, sql } from '../../test/support/pg';
import { databaseUrl } from '../../test/support/test-env';
import { SmtpSink } from '../../test/support/smtp-sink';
import { bootApp } from '../../test/support/test-app';
import { BENCH_SECRETS, fmt, runAlone } from '../bench-env';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Child, startChild } from '../child';
import { Phase, phaseMark } from '../profile-top';
import { fleetTokens, makeFleet } from './fleet';
import { benchEntry } from './own-cluster';
import { pacedLoad } from './paced';
import { describeCpu, ProcessCpu } from './process-cpu';
import { quietProbe } from './quiet-probe';

const TENANTS = Number(process.env.BENCH_TENANTS ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
/** The shipped TENANT_CONNECTION_CEILING and TENANT_POOL_MAX unless an operator's tuning is benched. */
const CEILING = Number(process.env.BENCH_TENANT_CONNECTION_CEILING ?? 60);
const POOL_MAX = Number(process.env.BENCH_TENANT_POOL_MAX ?? 5);
const APP = 'svc-platform:load-%';
/** Which parts run: `flat` (flat out, one client and spread), `paced`, `quiet` (the quiet-client probe). */
const MODES = new Set((process.env.BENCH_MODES ?? 'flat,paced,quiet').split(',').map((m) => m.trim()));
/** Paced mode: the total rate, spread over every client (each visited every TENANTS / rate s). */
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 100);
/** Long enough by default for every client to be visited three times. */
const PACED_DURATION_S = Number(
  process.env.BENCH_PACED_DURATION_S ?? Math.max(DURATION_S, Math.ceil((3 * TENANTS) / PACED_RATE)),
);
const QUIET_IDLE_S = (process.env.BENCH_QUIET_IDLE_S ?? '10,60,600').split(',').map(Number);
const QUIET_SAMPLES = Number(process.env.BENCH_QUIET_SAMPLES ?? 10);
/** The other clients' load while quiet clients are probed (req/s over them in turn; 0 for none). */
const QUIET_BACKGROUND_RATE = Number(process.env.BENCH_QUIET_BACKGROUND_RATE ?? PACED_RATE);
/** How often the client connections in pg_stat_activity are counted during the flat-out spread. */
const SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS ?? 100);
/** Settings passed to the API only when given, so an older build runs with its own defaults. */
const OPTIONAL_APP_ENV = Object.fromEntries(
  [
    ['TENANT_POOL_IDLE_MS', process.env.BENCH_TENANT_POOL_IDLE_MS],
    ['AUTH_STATE_CACHE_SECONDS', process.env.BENCH_AUTH_STATE_CACHE_SECONDS],
  ].filter(([, value]) => value !== undefined),
) as Record<string, string>;

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

/** Samples the client connections every SAMPLE_MS while `work` runs; answers the most seen. */
async function sampled<T>(master: string, work: Promise<T>): Promise<[T, number]> {
  let most = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      most = Math.max(most, await clientConnections(master));
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
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

async function apiCpuMs(server: Child): Promise<number> {
  const { user, system } = await server.ask<{ user: number; system: number }>('cpu');
  return (user + system) / 1000;
}

/** When each load ran, to cut the API's CPU profile by them (bench/profile-top.ts). */
const phases: Phase[] = [];

/** Runs `work` and answers its result with the API's CPU ms and each process's CPU meanwhile. */
async function withCpu<T>(server: Child, phase: string, work: () => Promise<T>) {
  const split = new ProcessCpu(server.process.pid!);
  const before = await apiCpuMs(server);
  const started = process.hrtime.bigint();
  split.start();
  const result = await work();
  const cpu = split.stop();
  phases.push(phaseMark(phase, started));
  return { result, apiMs: (await apiCpuMs(server)) - before, cpu };
}

/** Writes the phases beside the loaded process's profile and says how to read them. */
function notePhases(server: Child) {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir || !server.profile) return;
  const file = join(dir, `phases-${Date.now()}.json`);
  // The profile itself is written when the child exits, which is what makes the folder.
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(phases, null, 2));
  console.log(`  profile              : node dist-bench/bench/profile-top.js ${server.profile} ${file}`);
}

/** Flat out at `CONNECTIONS`: one client, then each request to the next client (the original bench). */
async function flatOut(
  server: Child,
  ids: string[],
  tokens: Map<string, string>,
  master: string,
  bare: Load | undefined,
) {
  const one = [ids[0]];
  const single = await withCpu(server, 'flat, one client', () => load(server.port, one, tokens));
  const before = await connectionFigures(server.port);
  const spread = await withCpu(server, 'flat, spread', () => sampled(master, load(server.port, ids, tokens)));
  const after = await connectionFigures(server.port);
  const [spreadLoad, most] = spread.result;
  const ratio = spreadLoad.rps / single.result.rps;
  const p99Ratio = spreadLoad.p99 / single.result.p99;
  const perRequest = (apiMs: number, total: number) => fmt(apiMs / Math.max(1, total), 2);
  console.log(`\n Flat out: ${CONNECTIONS} connections, ${DURATION_S} s each`);
  console.log(
    `  one client           : ${fmt(single.result.rps, 0)} req/s, p99 ${single.result.p99} ms (non-2xx ${single.result.non2xx}), API CPU ${perRequest(single.apiMs, single.result.total)} ms/request`,
  );
  console.log(
    `  spread over ${TENANTS} : ${fmt(spreadLoad.rps, 0)} req/s, p99 ${spreadLoad.p99} ms (non-2xx ${spreadLoad.non2xx}), API CPU ${perRequest(spread.apiMs, spreadLoad.total)} ms/request (ratio ${fmt(spread.apiMs / Math.max(1, spreadLoad.total) / (single.apiMs / Math.max(1, single.result.total)), 2)})`,
  );
  if (bare)
    console.log(
      `  bare pg, no app      : ${fmt(bare.rps, 0)} connect+query+disconnect/s to the next client database, p99 ${bare.p99} ms (ratio to one client ${fmt(bare.rps / single.result.rps, 2)}: the most the spread load can reach when the ceiling holds fewer connections than clients)`,
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
    `  during the spread    : ${after.opens - before.opens} connections opened for ${spreadLoad.total} requests, evictions idle ${after.idle - before.idle}, ceiling ${after.ceiling - before.ceiling}`,
  );
  console.log(`  CPU, one client      : ${describeCpu(single.cpu)}`);
  console.log(`  CPU, spread          : ${describeCpu(spread.cpu)}`);
}

/** A fixed total rate over every client, beside the same rate on one client. */
async function paced(server: Child, ids: string[], tokens: Map<string, string>) {
  const single = await withCpu(server, 'paced, one client', () =>
    pacedLoad(server.port, [ids[0]], tokens, PACED_RATE, PACED_DURATION_S),
  );
  const spread = await withCpu(server, 'paced, spread', () =>
    pacedLoad(server.port, ids, tokens, PACED_RATE, PACED_DURATION_S),
  );
  const line = (r: typeof single) =>
    `p50 ${r.result.p50} ms, p95 ${r.result.p95} ms, p99 ${r.result.p99} ms (${r.result.count} requests, non-2xx ${r.result.non2xx}${r.result.statuses}), API CPU ${fmt(r.apiMs / Math.max(1, r.result.count), 2)} ms/request`;
  const p99Ratio = spread.result.p99 / single.result.p99;
  console.log(
    `\n Paced: ${PACED_RATE} req/s for ${PACED_DURATION_S} s (each of ${TENANTS} clients every ${fmt(TENANTS / PACED_RATE, 1)} s)`,
  );
  console.log(`  one client           : ${line(single)}`);
  console.log(`  spread over ${TENANTS} : ${line(spread)}`);
  console.log(
    `  p99 ratio            : ${fmt(p99Ratio, 2)} (target <= 2: ${p99Ratio <= 2 ? 'met' : 'NOT met'})`,
  );
  console.log(`  CPU, one client      : ${describeCpu(single.cpu)}`);
  console.log(`  CPU, spread          : ${describeCpu(spread.cpu)}`);
}

/** One request to a client idle for each of QUIET_IDLE_S, beside one to the same client just used. */
async function quiet(server: Child, ids: string[], tokens: Map<string, string>) {
  const background = ids.length > QUIET_IDLE_S.length * QUIET_SAMPLES ? QUIET_BACKGROUND_RATE : 0;
  console.log(
    `\n Quiet clients: ${QUIET_SAMPLES} clients per idle time, one request after the idle time, then one at once to the same client, new HTTP connections; the other clients ${background} req/s meanwhile (about ${Math.max(...QUIET_IDLE_S)} s)`,
  );
  const options = {
    idleSeconds: QUIET_IDLE_S,
    samples: QUIET_SAMPLES,
    backgroundRate: QUIET_BACKGROUND_RATE,
  };
  for (const r of await quietProbe(server, ids, tokens, options)) {
    const ratio = r.quiet.p99 / r.busy.p99;
    console.log(
      `  idle ${String(r.idleS).padStart(4)} s: p50 ${r.quiet.p50} ms, p99 ${r.quiet.p99} ms, API CPU ${fmt(r.quietCpuMs, 2)} ms/request; just used: p50 ${r.busy.p50} ms, p99 ${r.busy.p99} ms, API CPU ${fmt(r.busyCpuMs, 2)} ms/request; p99 ratio ${fmt(ratio, 2)} (target < 3: ${ratio < 3 ? 'met' : 'NOT met'}), non-2xx ${r.quiet.non2xx}`,
    );
  }
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
    ...OPTIONAL_APP_ENV,
  };
  await setup.close();
  await sink.stop();
  // Before the API starts, so the two never hold connections at once (PostgreSQL's 100 are shared).
  const bare = MODES.has('flat')
    ? await bareConnectPerRequest(fleet.identifiers.map((id) => clientDatabase(setup.masterDatabase, id)))
    : undefined;

  const server = await startChild('nest-server', { BENCH_APP_ENV: JSON.stringify(appEnv) });
  let serverStopped = false;
  let idle: Awaited<ReturnType<typeof startChild>> | undefined;
  try {
    const one = [fleet.identifiers[0]];
    await load(server.port, one, tokens, { duration: 3 });
    // Every client once at least, so a ceiling that holds them all starts the measure warm.
    await load(server.port, fleet.identifiers, tokens, { amount: Math.max(TENANTS, CONNECTIONS * 10) });
    console.log(
      `\nTenants: GET /api/units, ${TENANTS} clients (made in ${fmt(fleet.seconds, 0)} s), TENANT_CONNECTION_CEILING ${CEILING}, TENANT_POOL_MAX ${POOL_MAX}${Object.entries(
        OPTIONAL_APP_ENV,
      )
        .map(([k, v]) => `, ${k} ${v}`)
        .join('')}`,
    );
    if (MODES.has('flat')) await flatOut(server, fleet.identifiers, tokens, setup.masterDatabase, bare);
    if (MODES.has('paced')) await paced(server, fleet.identifiers, tokens);
    if (MODES.has('quiet')) await quiet(server, fleet.identifiers, tokens);
    notePhases(server);

    idle = await startChild('nest-server', { BENCH_APP_ENV: JSON.stringify(appEnv) });
    await new Promise((r) => setTimeout(r, 3000));
    const metrics = await (await fetch(`http://127.0.0.1:${idle.port}/metrics`)).text();
    const idleHeld = Number(/^tenant_connections_open (\d+)/m.exec(metrics)?.[1]);
    await server.stop();
    serverStopped = true;
    await new Promise((r) => setTimeout(r, 500));
    const afterStop = await clientConnections(setup.masterDatabase);
    console.log(
      `  idle second process  : ${idleHeld} client connections by its metrics, ${afterStop} in pg_stat_activity once the loaded one stopped (target 0: ${idleHeld === 0 && afterStop === 0 ? 'met' : 'NOT met'})`,
    );
  } finally {
    if (!serverStopped) await server.stop();
    await idle?.stop();
  }
}

if (require.main === module) benchEntry(__filename, () => runAlone(main));
