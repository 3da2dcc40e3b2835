/**
 * Webhook delivery bench: 100 events per second (unit creations over HTTP) fanned out to 10
 * webhooks for 30 seconds, delivered to a local receiver. Reports lost and duplicate deliveries and
 * the latency from the event's request to its receipt (p50/p95/p99/max).
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/webhooks.js
 *
 * Settings (environment): BENCH_EVENTS_PER_SECOND (100), BENCH_WEBHOOKS (10), BENCH_SECONDS (30),
 * BENCH_WORKERS (1), BENCH_WARMUP_SECONDS (3: events sent first at the same rate, whose deliveries
 * count for loss and duplicates but not for latency, as a process's first second pays for opening
 * pools and sockets and for unoptimised code). Deployed as in production: this process is the API (QUEUE_PROCESSORS_ENABLED
 * false: HTTP, outbox relay), deliveries run in BENCH_WORKERS worker process(es) (dist-bench/src/worker.js).
 * It boots the real app against a throw-away database (test/support helpers) and drops it at the end.
 */
import { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { SmtpSink } from '../test/support/smtp-sink';
import { Client } from 'pg';
import { bootApp, provisionClient, TestApp } from '../test/support/test-app';
import { databaseUrl } from '../test/support/test-env';
import { withBenchRun } from './bench-env';
import { startWorker } from './child';

const RATE = Number(process.env.BENCH_EVENTS_PER_SECOND ?? 100);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
/** Events sent at the same rate before the measured ones: delivered and checked, not timed. */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
/** Give up waiting for deliveries after this long without a new one. */
const DRAIN_MS = 20_000;

interface Receipt {
  key: string;
  seq: number;
  /** When the event happened: the payload's timestamp (the outbox row's insert, inside the change's transaction). */
  eventAt: number;
  at: number;
}

function startReceiver(receipts: Receipt[]): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const seq = Number(String(body.data.attributes.name).replace('bench-', ''));
      receipts.push({
        key: `${body.eventId}:${body.webhookId}`,
        seq,
        eventAt: Date.parse(body.timestamp),
        at,
      });
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 5000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

/** Kept-alive connections to the API, as a real client pool would use. */
const apiAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function postUnit(port: number, token: string, seq: number): Promise<number> {
  const body = JSON.stringify({ name: `bench-${seq}` });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/units',
        method: 'POST',
        agent: apiAgent,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'X-Client-ID': 'bench',
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

async function generate(
  t: TestApp,
  token: string,
  sentAt: Map<number, number>,
  first: number,
  seconds: number,
) {
  const port = (t.app.getHttpServer().address() as AddressInfo).port;
  const total = RATE * seconds;
  const started = Date.now();
  const inFlight: Promise<unknown>[] = [];
  let failures = 0;
  for (let seq = first; seq < first + total; seq++) {
    const due = started + ((seq - first) * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sentAt.set(seq, Date.now());
    inFlight.push(
      postUnit(port, token, seq).then(
        (status) => {
          if (status !== 201) failures++;
        },
        () => failures++,
      ),
    );
  }
  await Promise.all(inFlight);
  return { total, failures, seconds: (Date.now() - started) / 1000 };
}

async function startWorkers(env: NodeJS.ProcessEnv, workers: ChildProcess[]) {
  for (let i = 0; i < WORKERS; i++) workers.push(await startWorker(env));
}

async function countUnits(database: string): Promise<number> {
  const pg = new Client({ connectionString: databaseUrl(database) });
  await pg.connect();
  try {
    const { rows } = await pg.query(`SELECT count(*)::int AS n FROM units WHERE name LIKE 'bench-%'`);
    return rows[0].n as number;
  } finally {
    await pg.end();
  }
}

/** Delivery records by status in the client database, as the service saw them. */
async function statusCounts(database: string): Promise<Record<string, unknown>> {
  const pg = new Client({ connectionString: databaseUrl(database) });
  await pg.connect();
  try {
    const { rows } = await pg.query(
      'SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status',
    );
    const outbox = await pg.query('SELECT count(*)::int AS n FROM event_outbox');
    // Where the time goes (p50, p99): event → delivery row (outbox relay), delivery row → completed (queue and send).
    const stages = await pg.query(
      `SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY relay_ms) AS relay_ms,
              percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY deliver_ms) AS deliver_ms
         FROM (SELECT extract(epoch FROM created_at - (payload::json->>'timestamp')::timestamptz) * 1000 AS relay_ms,
                      extract(epoch FROM completed_at - created_at) * 1000 AS deliver_ms
                 FROM webhook_deliveries) s`,
    );
    return {
      ...Object.fromEntries(rows.map((r) => [r.status, r.n])),
      outboxLeft: outbox.rows[0].n,
      eventToDeliveryRowMs: stages.rows[0].relay_ms.map(Math.round),
      deliveryRowToCompletedMs: stages.rows[0].deliver_ms.map(Math.round),
    };
  } finally {
    await pg.end();
  }
}

type WebhooksResult = { expected: number; received: number; lost: number; p99: number };

/** Inside `npm run bench` this shares the run's prefix, whose databases the run drops at its end. */
export function main(): Promise<WebhooksResult> {
  return withBenchRun(run);
}

async function run(): Promise<WebhooksResult> {
  const sink = await new SmtpSink().start();
  const receipts: Receipt[] = [];
  const receiver = await startReceiver(receipts);
  const port = (receiver.address() as AddressInfo).port;
  let t: TestApp | undefined;
  const workers: ChildProcess[] = [];
  try {
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        QUEUE_PROCESSORS_ENABLED: 'false',
        TENANT_POOL_MAX: '20',
        WEBHOOK_ENDPOINT_CONCURRENCY: process.env.WEBHOOK_ENDPOINT_CONCURRENCY ?? '20',
        WEBHOOK_WORKER_CONCURRENCY: process.env.WEBHOOK_WORKER_CONCURRENCY ?? '100',
      },
    });
    await startWorkers(t.env, workers);
    const client = await provisionClient(t, sink, 'bench');
    for (let i = 0; i < WEBHOOKS; i++) {
      const res = await t
        .http()
        .post('/api/admin/webhooks')
        .set('X-Client-ID', 'bench')
        .set('Authorization', `Bearer ${client.adminToken}`)
        .send({ name: `bench ${i}`, url: `http://127.0.0.1:${port}/hook/${i}`, events: ['unit.created'] });
      if (res.status !== 201) throw new Error(`webhook: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const sentAt = new Map<number, number>();
    const warmup = RATE * WARMUP_SECONDS;
    await generate(t, client.adminToken, sentAt, 0, WARMUP_SECONDS);
    const sent = await generate(t, client.adminToken, sentAt, warmup, SECONDS);
    const measuredFrom = sentAt.get(warmup)!;
    const sendEnded = Date.now();
    // Units the service actually created (a request cut off by the network may still have committed).
    const created = await countUnits(`${t.masterDatabase}_bench`);
    const expected = created * WEBHOOKS;
    // Wait for the rest; give up only after DRAIN_MS without progress (late is not lost).
    let last = -1;
    let progressAt = Date.now();
    for (;;) {
      const got = new Set(receipts.map((r) => r.key)).size;
      if (got >= expected) break;
      if (got !== last) [last, progressAt] = [got, Date.now()];
      if (Date.now() - progressAt > DRAIN_MS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const drainSeconds = Number(((Date.now() - sendEnded) / 1000).toFixed(1));
    const unique = new Set(receipts.map((r) => r.key)).size;
    const deliveryStatuses = await statusCounts(`${t.masterDatabase}_bench`);
    const sorted = (values: number[]) => values.sort((a, b) => a - b);
    const measured = receipts.filter((r) => r.seq >= warmup);
    const latencies = sorted(measured.map((r) => r.at - r.eventAt));
    const fromRequest = sorted(measured.map((r) => r.at - (sentAt.get(r.seq) ?? r.at)));
    const p99 = percentile(latencies, 99);
    // p99 per 5 s of the load, to tell a steady lag from a backlog that builds up.
    const byWindow: Record<string, number> = {};
    for (let from = 0; from < SECONDS; from += 5) {
      const inWindow = measured.filter((r) => {
        const at = (sentAt.get(r.seq) ?? 0) - measuredFrom;
        return at >= from * 1000 && at < (from + 5) * 1000;
      });
      byWindow[`${from}-${from + 5}s`] = percentile(sorted(inWindow.map((r) => r.at - r.eventAt)), 99);
    }
    const warm = sorted(receipts.filter((r) => r.seq < warmup).map((r) => r.at - r.eventAt));
    const report = {
      warmupEventsSent: warmup,
      warmupEventToReceiptMs: { p99: percentile(warm, 99), max: warm[warm.length - 1] },
      withWarmupEventToReceiptP99Ms: percentile(sorted(receipts.map((r) => r.at - r.eventAt)), 99),
      eventsSent: sent.total,
      requestsFailed: sent.failures,
      eventsCreated: created,
      sendSeconds: Number(sent.seconds.toFixed(1)),
      drainSecondsAfterSend: drainSeconds,
      webhooks: WEBHOOKS,
      workerProcesses: WORKERS,
      deliveriesExpected: expected,
      receiverCount: receipts.length,
      uniqueDelivered: unique,
      duplicates: receipts.length - unique,
      lost: expected - unique,
      eventToReceiptMs: {
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        p99,
        max: latencies[latencies.length - 1],
      },
      eventToReceiptP99ByWindow: byWindow,
      requestToReceiptMs: {
        p50: percentile(fromRequest, 50),
        p99: percentile(fromRequest, 99),
        max: fromRequest[fromRequest.length - 1],
      },
      deliveryStatuses,
      verdict: expected === unique && p99 < 1000 ? 'PASS' : 'FAIL',
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return { expected, received: unique, lost: expected - unique, p99 };
  } finally {
    apiAgent.destroy();
    await Promise.all(
      workers.map(
        (w) => new Promise((resolve) => (w.exitCode === null ? w.once('exit', resolve).kill() : resolve(0))),
      ),
    );
    await t?.close();
    await new Promise((r) => receiver.close(r));
    receiver.closeAllConnections();
    await sink.stop();
  }
}

if (require.main === module) {
  main().then(
    (r) => process.exit(r.lost === 0 && r.p99 < 1000 ? 0 : 1),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
