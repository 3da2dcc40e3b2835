/**
 * Outbox relay over many clients: BENCH_TENANTS clients (1,000) each with a webhook on a local
 * receiver, and unit creations spread over all of them at BENCH_EVENTS_PER_SECOND (100) for
 * BENCH_SECONDS (30). Before the load, an idle check: for BENCH_IDLE_SECONDS (10) with no events,
 * no client-database connection is opened or used (pg_stat_activity by application_name). Then a
 * warm-up of one event per client at the same rate, reported apart (BENCH_WARM_UP=0 skips it): the
 * measured events are those of 1,000 active clients, whose connections are open and whose files are
 * read, as in a process that has served them for a while.
 * The measured API is a child process (QUEUE_PROCESSORS_ENABLED false: HTTP and the relay of its own
 * commits); one worker process follows the signals, sweeps and delivers. This process makes the
 * fleet through an app of its own (idle during the load), sends the load and receives the webhooks.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/tenants/outbox.js
 *
 * BENCH_PG_CLUSTER=1 runs it on a PostgreSQL cluster of its own (see own-cluster.ts).
 */
import { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { clientDatabase, sql } from '../../test/support/pg';
import { SmtpSink } from '../../test/support/smtp-sink';
import { bootApp, TestApp } from '../../test/support/test-app';
import { DatabaseServerRegistry } from '../../src/tenancy/database-server-registry';
import { withBenchRun } from '../bench-env';
import { Child, startChild, startWorker } from '../child';
import { fleetTokens, makeFleet } from './fleet';
import { benchEntry } from './own-cluster';

const TENANTS = Number(process.env.BENCH_TENANTS ?? 1000);
const RATE = Number(process.env.BENCH_EVENTS_PER_SECOND ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
/** One unmeasured event per client before the measured ones (BENCH_WARM_UP=0 measures from cold). */
const WARM_UP = process.env.BENCH_WARM_UP !== '0';
/**
 * Each process's TENANT_CONNECTION_CEILING and TENANT_POOL_IDLE_MS: 20 and 5 s keep the API and the
 * worker within a shared PostgreSQL's 100 connections. An operator's tuning on a cluster of the
 * bench's own holds every active client (BENCH_TENANT_CONNECTION_CEILING) for longer than the time
 * between two events of a client (BENCH_TENANT_POOL_IDLE_MS); the worker's ceiling stays apart
 * (BENCH_WORKER_CONNECTION_CEILING), so the two fit under the cluster's max_connections.
 */
const CEILING = Number(process.env.BENCH_TENANT_CONNECTION_CEILING ?? 20);
const WORKER_CEILING = Number(process.env.BENCH_WORKER_CONNECTION_CEILING ?? CEILING);
const POOL_IDLE_MS = Number(process.env.BENCH_TENANT_POOL_IDLE_MS ?? 5000);
const PREFIX = 'obx';
/** Give up waiting for deliveries after this long without a new one. */
const DRAIN_MS = 20_000;
const WEBHOOK_SETUP_CONCURRENCY = 8;

interface Receipt {
  eventId: string;
  name: string;
  eventAt: number;
  at: number;
}

function startReceiver(receipts: Receipt[]): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      receipts.push({
        eventId: body.eventId,
        name: String(body.data.attributes.name),
        eventAt: Date.parse(body.timestamp),
        at: Date.now(),
      });
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 5000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

const apiAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(port: number, path: string, client: string, token: string, payload: unknown): Promise<number> {
  const body = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: apiAgent,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'X-Client-ID': client,
          Authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Client-database connections of the fleet opened, or that ran a statement, since `since`. */
async function fleetConnectionsUsed(t: TestApp, since: Date): Promise<{ opened: number; used: number }> {
  const [row] = await sql<{ opened: string; used: string }>(
    t.masterDatabase,
    `SELECT count(*) FILTER (WHERE backend_start > $2) AS opened,
            count(*) FILTER (WHERE state_change > $2) AS used
       FROM pg_stat_activity WHERE application_name LIKE $1`,
    [`svc-platform:${PREFIX}-%`, since],
  );
  return { opened: Number(row.opened), used: Number(row.used) };
}

const stop = (child: ChildProcess) =>
  new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve).kill() : resolve(0)));

type OutboxResult = { lost: number; duplicates: number; p99: number; idleOpened: number };

export function main(): Promise<OutboxResult> {
  return withBenchRun(run);
}

async function run(): Promise<OutboxResult> {
  const sink = await new SmtpSink().start();
  const receipts: Receipt[] = [];
  const receiver = await startReceiver(receipts);
  const receiverPort = (receiver.address() as AddressInfo).port;
  let t: TestApp | undefined;
  let worker: ChildProcess | undefined;
  let api: Child | undefined;
  try {
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        QUEUE_PROCESSORS_ENABLED: 'false',
        TENANT_POOL_MAX: '2',
        TENANT_POOL_IDLE_MS: String(POOL_IDLE_MS),
        TENANT_CONNECTION_CEILING: String(CEILING),
        WEBHOOK_WORKER_CONCURRENCY: '100',
      },
    });
    // Provisioning runs in the worker, so it starts first.
    worker = await startWorker({ ...t.env, TENANT_CONNECTION_CEILING: String(WORKER_CEILING) });
    const fleet = await makeFleet(t, sink, TENANTS, PREFIX);
    // The server's registered maxConnections is each process's budget there (TENANT_SERVER_PROCESSES 1):
    // an operator who raises the ceilings past it raises it too. The worker already runs: the change
    // is announced to every replica, as the platform API does.
    await sql(
      t.masterDatabase,
      'UPDATE database_servers SET max_connections = greatest(max_connections, $1)',
      [Math.max(CEILING, WORKER_CEILING)],
    );
    await t.app.get(DatabaseServerRegistry).changed();
    await new Promise((r) => setTimeout(r, 5500)); // the registry's refresh picks up the cloned clients
    const setupStarted = Date.now();
    const tokens = await fleetTokens(t, fleet);
    const port = (t.app.getHttpServer().address() as AddressInfo).port;
    let nextHook = 0;
    // A few at once: each is a request that opens its client's connection under the ceiling of 20.
    await Promise.all(
      Array.from({ length: WEBHOOK_SETUP_CONCURRENCY }, async () => {
        while (nextHook < fleet.identifiers.length) {
          const identifier = fleet.identifiers[nextHook++];
          const status = await post(port, '/api/admin/webhooks', identifier, tokens.get(identifier)!, {
            name: 'bench',
            url: `http://127.0.0.1:${receiverPort}/hook/${identifier}`,
            events: ['unit.created'],
          });
          if (status !== 201) throw new Error(`webhook for ${identifier}: ${status}`);
        }
      }),
    );
    const setupSeconds = (Date.now() - setupStarted) / 1000;

    // The idle check starts once the pools opened by the set-up have closed (TENANT_POOL_IDLE_MS).
    const deadline = Date.now() + 60_000 + POOL_IDLE_MS;
    while ((await fleetConnectionsUsed(t, new Date(0))).opened > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 500));
    const idleFrom = new Date();
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idle = await fleetConnectionsUsed(t, idleFrom);

    // The measured API runs in a process of its own, as in production: in this one it would share an
    // event loop with the load and the webhook receiver. The set-up app above stays idle.
    api = await startChild('nest-server', {
      BENCH_APP_ENV: JSON.stringify({
        ...t.env,
        LOG_LEVEL: 'error',
        MULTITENANCY_DATABASE_AUTO_MIGRATE: 'false',
        QUEUE_PROCESSORS_ENABLED: 'false',
        TENANT_POOL_MAX: '2',
        TENANT_POOL_IDLE_MS: String(POOL_IDLE_MS),
        TENANT_CONNECTION_CEILING: String(CEILING),
      }),
    });
    const send = (count: number, label: string) =>
      sendPhase({ port: api!.port, fleet: fleet.identifiers, tokens, receipts, count, label });
    // Active clients: each client's first event opens its connections in both processes and reads
    // its database's files from disk. Reported apart; the steady state is what the target is about.
    const warmUp = WARM_UP ? await send(TENANTS, 'warm') : undefined;
    const phase = await send(RATE * SECONDS, 'obx');
    const notReceived =
      phase.created > phase.unique ? await whereTheMissingAre(t, fleet.identifiers, phase, receipts) : [];
    const p99 = phase.eventToReceiptMs.p99;
    const report = {
      tenants: TENANTS,
      connectionCeiling: { api: CEILING, worker: WORKER_CEILING, idleMs: POOL_IDLE_MS },
      fleetSeconds: Math.round(fleet.seconds),
      webhookSetupSeconds: Math.round(setupSeconds),
      idleCheck: { seconds: IDLE_SECONDS, connectionsOpened: idle.opened, connectionsUsed: idle.used },
      eventsPerSecond: RATE,
      warmUp: warmUp && summary(warmUp),
      eventsSent: phase.sent,
      eventsCreated: phase.created,
      requestsFailed: phase.failures,
      sendSeconds: phase.sendSeconds,
      received: phase.received,
      lost: phase.created - phase.unique,
      notReceived,
      duplicates: phase.received - phase.unique,
      eventToReceiptMs: phase.eventToReceiptMs,
      requestToReceiptMs: phase.requestToReceiptMs,
    };
    const pass = report.lost === 0 && report.duplicates === 0 && p99 < 1000 && idle.opened + idle.used === 0;
    process.stdout.write(
      `\nOutbox over many clients\n${JSON.stringify({ ...report, verdict: pass ? 'PASS' : 'FAIL' }, null, 2)}\n`,
    );
    return { lost: report.lost, duplicates: report.duplicates, p99, idleOpened: idle.opened + idle.used };
  } finally {
    apiAgent.destroy();
    await api?.stop();
    if (worker) await stop(worker);
    await t?.close();
    await new Promise((r) => receiver.close(r));
    receiver.closeAllConnections();
    await sink.stop();
  }
}

if (require.main === module) {
  benchEntry(__filename, () => {
    void main().then(
      (r) => process.exit(r.lost === 0 && r.duplicates === 0 && r.p99 < 1000 && r.idleOpened === 0 ? 0 : 1),
      (err) => {
        process.stderr.write(`${(err as Error).stack ?? err}\n`);
        process.exit(1);
      },
    );
  });
}

interface Phase {
  label: string;
  sent: number;
  created: number;
  failures: number;
  sendSeconds: number;
  received: number;
  unique: number;
  sentAt: Map<string, number>;
  eventToReceiptMs: { p50: number; p95: number; p99: number; max: number };
  requestToReceiptMs: { p50: number; p99: number };
}

/**
 * Sends `count` unit creations at RATE a second, named `<label>-<seq>`, spread over the fleet (a
 * stride coprime with its size visits every client once per fleet-size events, in a mixed order),
 * then waits for their webhooks until DRAIN_MS pass without a new one.
 */
async function sendPhase(o: {
  port: number;
  fleet: string[];
  tokens: Map<string, string>;
  receipts: Receipt[];
  count: number;
  label: string;
}): Promise<Phase> {
  const sentAt = new Map<string, number>();
  const started = Date.now();
  const inFlight: Promise<unknown>[] = [];
  let created = 0;
  let failures = 0;
  for (let seq = 0; seq < o.count; seq++) {
    const due = started + (seq * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const identifier = o.fleet[(seq * 7919) % o.fleet.length];
    const name = `${o.label}-${seq}`;
    sentAt.set(name, Date.now());
    inFlight.push(
      post(o.port, '/api/units', identifier, o.tokens.get(identifier)!, { name }).then(
        (status) => (status === 201 ? created++ : failures++),
        () => failures++,
      ),
    );
  }
  await Promise.all(inFlight);
  const sendSeconds = Number(((Date.now() - started) / 1000).toFixed(1));
  const mine = () => o.receipts.filter((r) => sentAt.has(r.name));
  let last = -1;
  let progressAt = Date.now();
  for (;;) {
    const got = new Set(mine().map((r) => r.eventId)).size;
    if (got >= created) break;
    if (got !== last) [last, progressAt] = [got, Date.now()];
    if (Date.now() - progressAt > DRAIN_MS) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const receipts = mine();
  const sorted = (values: number[]) => values.sort((a, b) => a - b);
  const latencies = sorted(receipts.map((r) => r.at - r.eventAt));
  const fromRequest = sorted(receipts.map((r) => r.at - sentAt.get(r.name)!));
  return {
    label: o.label,
    sent: o.count,
    created,
    failures,
    sendSeconds,
    received: receipts.length,
    unique: new Set(receipts.map((r) => r.eventId)).size,
    sentAt,
    eventToReceiptMs: {
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      max: latencies[latencies.length - 1],
    },
    requestToReceiptMs: { p50: percentile(fromRequest, 50), p99: percentile(fromRequest, 99) },
  };
}

function summary(p: Phase) {
  return {
    events: p.sent,
    created: p.created,
    received: p.unique,
    sendSeconds: p.sendSeconds,
    eventToReceiptMs: p.eventToReceiptMs,
    requestToReceiptMs: p.requestToReceiptMs,
  };
}

/**
 * For up to 10 creations whose webhook did not arrive: their client's outbox rows left and their
 * deliveries' state, which tells a lost event from one waiting for a retry.
 */
async function whereTheMissingAre(t: TestApp, identifiers: string[], phase: Phase, receipts: Receipt[]) {
  const got = new Set(receipts.map((r) => r.name));
  const missing = [...phase.sentAt.keys()].filter((name) => !got.has(name)).slice(0, 10);
  return Promise.all(
    missing.map(async (name) => {
      const identifier =
        identifiers[(Number(name.slice(phase.label.length + 1)) * 7919) % identifiers.length];
      const [state] = await sql<Record<string, unknown>>(
        clientDatabase(t.masterDatabase, identifier),
        `SELECT (SELECT count(*)::int FROM units WHERE name = $1) AS units,
                (SELECT count(*)::int FROM event_outbox) AS outbox,
                (SELECT json_agg(json_build_object('status', status, 'attempts', attempt_count,
                   'error', error_message, 'next', next_attempt_at))
                   FROM webhook_deliveries WHERE payload LIKE '%' || $1 || '"%') AS deliveries`,
        [name],
      );
      return { name, identifier, ...state };
    }),
  );
}
