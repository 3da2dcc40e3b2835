/**
 * AI chat gateway bench, against a local fake vendor (OpenAI wire format), with the API and the log
 * worker in their own processes as deployed:
 * - added latency: chats BENCH_AI_CONCURRENCY (50) at a time, straight to the vendor (the bare
 *   baseline) and through POST /api/ai/chat (auth, validation, the per-user rate in Redis, the SDK,
 *   metrics, the exchange queued for the log); p50/p95 of both, their difference, and the gateway's
 *   own time per chat from its Server-Timing header (time in the gateway less the vendor's). Twice:
 *   BENCH_AI_CHATS chats with the vendor answering at once (callers back to back, so the machine is
 *   saturated and the figures measure throughput), then BENCH_AI_PACED_CHATS with answers taking
 *   BENCH_AI_ANSWER_MS (1000) ± half of it and the callers starting spread over one answer time, so
 *   50 chats are in flight at any time, arriving spread out as with real models; each phase starts
 *   once the log worker has written the previous one's exchanges;
 * - statistics: BENCH_AI_LOG_ROWS exchanges (1,000,000) written straight into the log table, then
 *   GET /api/ai/stats and /api/ai/stats/costs BENCH_AI_STATS_CALLS times each; p50/p95.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/ai.js
 *
 * BENCH_AI_LOGGING=false runs the chats without the log (the statistics part then answers 400).
 * Small scale: BENCH_AI_CHATS=500 BENCH_AI_PACED_CHATS=200 BENCH_AI_LOG_ROWS=20000. Figures mean
 * something only on a quiet machine. It drops its throw-away databases at the end.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { ROLLUP_COLUMNS, withRollups } from '../src/ai/log/exchange-rollups';
import { FakeVendor } from '../test/support/fake-ai-vendor';
import { SmtpSink } from '../test/support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient } from '../test/support/test-app';
import { databaseUrl } from '../test/support/test-env';
import { BENCH_SECRETS, fmt, withBenchRun } from './bench-env';
import { startChild, startWorker } from './child';
import { cpuSeconds } from './cpu-time';

const CHATS = Number(process.env.BENCH_AI_CHATS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_AI_CONCURRENCY ?? 50);
const LOG_ROWS = Number(process.env.BENCH_AI_LOG_ROWS ?? 1_000_000);
const STATS_CALLS = Number(process.env.BENCH_AI_STATS_CALLS ?? 20);
const ANSWER_MS = Number(process.env.BENCH_AI_ANSWER_MS ?? 1000);
const PACED_CHATS = Number(process.env.BENCH_AI_PACED_CHATS ?? 1500);

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

interface Answer {
  status: number;
  /** The gateway's own time from its Server-Timing header (`gateway;dur=<ms>`), when present. */
  gatewayMs?: number;
}

function post(port: number, path: string, body: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        const timing = /gateway;dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, gatewayMs: timing ? Number(timing[1]) : undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `total` calls, `concurrency` at a time: the duration of each and the gateway's own time, in ms, sorted. */
async function timed(
  total: number,
  concurrency: number,
  call: () => Promise<Answer>,
  ok: number,
  staggerMs = 0,
) {
  const durations: number[] = [];
  const gateway: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, caller) => {
      await new Promise((resolve) => setTimeout(resolve, caller * staggerMs));
      while (next < total) {
        next++;
        const began = performance.now();
        const answer = await call().catch((): Answer => ({ status: 0 }));
        durations.push(performance.now() - began);
        if (answer.gatewayMs !== undefined) gateway.push(answer.gatewayMs);
        if (answer.status !== ok) failures++;
      }
    }),
  );
  const perSecond = (total / (performance.now() - started)) * 1000;
  return {
    sorted: durations.sort((a, b) => a - b),
    gateway: gateway.sort((a, b) => a - b),
    failures,
    perSecond,
  };
}

function report(label: string, sorted: number[], failures: number, perSecond?: number) {
  console.log(
    `  ${label.padEnd(22)} n=${sorted.length} p50=${fmt(percentile(sorted, 50), 2)} ms ` +
      `p95=${fmt(percentile(sorted, 95), 2)} ms failures=${failures}` +
      (perSecond === undefined ? '' : ` (${fmt(perSecond, 0)}/s)`),
  );
}

/** Waits until the log worker has written `count` exchanges (the queue drained). */
async function logWritten(database: string, count: number) {
  const pg = new Client({ connectionString: databaseUrl(database) });
  await pg.connect();
  try {
    for (let waited = 0; waited < 120_000; waited += 200) {
      const { rows } = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM ai_exchanges');
      if (rows[0].n >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the log worker did not write ${count} exchanges in 2 minutes`);
  } finally {
    await pg.end();
  }
}

async function fillLog(database: string, rows: number) {
  const pg = new Client({ connectionString: databaseUrl(database) });
  await pg.connect();
  try {
    // Through the log writer's own statement, so the rollups are kept exactly as in production.
    await pg.query(
      withRollups(
        `INSERT INTO ai_exchanges (id, occurred_at, user_id, username, company_id, provider, model,
           input_tokens, output_tokens, total_tokens, cost, latency_ms, conversation_id, metadata, success)
         SELECT gen_random_uuid(), now() - (i * 2591000.0 / $1) * interval '1 second', 1 + i % 50, 'user' || (i % 50), 1,
                (ARRAY['OPENAI','ANTHROPIC','GEMINI','AZURE_OPENAI','OLLAMA'])[1 + i % 5],
                'model-' || (i % 12), 10 + i % 90, 5 + i % 40, 15 + i % 90 + i % 40, (i % 1000) / 1e6,
                20 + i % 2000, 'conv-' || (i % 100000), NULL, i % 50 <> 0
           FROM generate_series(1, $1) AS i
         RETURNING ${ROLLUP_COLUMNS}`,
      ),
      [rows],
    );
    await pg.query(
      'ANALYZE ai_exchanges, ai_exchange_hours, ai_exchange_days, ai_exchange_user_hours, ai_exchange_latency_days, ai_exchange_latency_hours',
    );
  } finally {
    await pg.end();
  }
}

export async function main() {
  console.log(`AI chat gateway: ${CHATS} chats, ${CONCURRENCY} at a time; stats over ${LOG_ROWS} exchanges`);
  const fake = await new FakeVendor().start();
  const sink = await new SmtpSink().start();
  const setup = await bootApp({ env: { SMTP_URL: sink.url, ...BENCH_SECRETS } });
  let bench: ProvisionedClient;
  try {
    bench = await provisionClient(setup, sink, 'bench');
  } finally {
    await setup.close();
    await sink.stop();
  }
  // As deployed: the API answers and a separate worker writes the log; the vendor and the callers
  // stay in this process.
  const appEnv = {
    ...setup.env,
    ...BENCH_SECRETS,
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    MULTITENANCY_DATABASE_AUTO_MIGRATE: 'false',
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: `${fake.root}/v1`,
    AI_LOGGING_ENABLED: process.env.BENCH_AI_LOGGING ?? 'true',
    AI_RATE_LIMIT_PER_USER: String(CHATS * 10),
  };
  const api = await startChild('nest-server', {
    BENCH_APP_ENV: JSON.stringify({ ...appEnv, QUEUE_PROCESSORS_ENABLED: 'false' }),
  });
  const worker = await startWorker(appEnv);
  try {
    const port = api.port;
    const apiProcess = api.process;
    const messages = [{ role: 'user', content: 'Summarise the outage log of unit 4 in one line.' }];
    const vendorBody = JSON.stringify({ model: 'gpt-4o-mini', messages });
    const chatBody = JSON.stringify({ provider: 'openai', messages });
    const auth = { 'X-Client-ID': 'bench', Authorization: `Bearer ${bench.adminToken}` };
    const direct = () =>
      post(fake.port, '/v1/chat/completions', vendorBody, { Authorization: 'Bearer sk-bench' });
    const gateway = () => post(port, '/api/ai/chat', chatBody, auth);
    const cpuPerProcess = () => {
      const api = cpuSeconds(apiProcess.pid!);
      const writer = cpuSeconds(worker.pid!);
      return api && writer ? { api: api.app, worker: writer.app, postgres: api.postgres } : null;
    };

    // Warm-up of both paths (JIT, pools, sockets), not counted.
    await timed(Math.min(500, CHATS), CONCURRENCY, direct, 200);
    await timed(Math.min(500, CHATS), CONCURRENCY, gateway, 200);
    const logging = appEnv.AI_LOGGING_ENABLED === 'true';
    let chatted = Math.min(500, CHATS);
    const compare = async (chats: number, staggerMs = 0) => {
      if (logging) await logWritten(`${setup.masterDatabase}_bench`, chatted); // no backlog of the last phase
      const bare = await timed(chats, CONCURRENCY, direct, 200, staggerMs);
      const cpuBefore = cpuPerProcess();
      const through = await timed(chats, CONCURRENCY, gateway, 200, staggerMs);
      if (logging) await logWritten(`${setup.masterDatabase}_bench`, chatted + chats);
      const cpuAfter = cpuPerProcess();
      chatted += chats;
      report('vendor directly', bare.sorted, bare.failures, bare.perSecond);
      report('through the gateway', through.sorted, through.failures, through.perSecond);
      // With answers of random length the callers' difference says nothing; only at once it does.
      if (!staggerMs) {
        console.log(
          `  difference seen by callers p50=${fmt(percentile(through.sorted, 50) - percentile(bare.sorted, 50), 2)} ms ` +
            `p95=${fmt(percentile(through.sorted, 95) - percentile(bare.sorted, 95), 2)} ms`,
        );
      }
      if (cpuBefore && cpuAfter) {
        const perChat = (key: keyof typeof cpuAfter) =>
          fmt(((cpuAfter[key] - cpuBefore[key]) / chats) * 1000, 2);
        console.log(
          `  CPU per chat through the gateway (its log written): API ${perChat('api')} ms, ` +
            `log worker ${perChat('worker')} ms, PostgreSQL ${perChat('postgres')} ms`,
        );
      }
      const own50 = percentile(through.gateway, 50);
      const own95 = percentile(through.gateway, 95);
      console.log(
        `  gateway's own time (Server-Timing) p50=${fmt(own50, 2)} ms p95=${fmt(own95, 2)} ms ` +
          (staggerMs
            ? `(targets 2 ms, 5 ms: ${own50 < 2 && own95 < 5 ? 'met' : 'NOT met'})`
            : `(queueing on a saturated machine: ${fmt(through.perSecond / bare.perSecond, 3)} of the vendor's chats/s; ` +
              'the latency targets are judged with chats in flight below)'),
      );
    };
    console.log(`vendor answering at once (${CONCURRENCY} callers back to back: the machine saturated)`);
    await compare(CHATS);
    // Answers take ANSWER_MS ± half of it and the callers start spread over one answer time, so chats
    // arrive spread out (about CONCURRENCY per ANSWER_MS), not in bursts of CONCURRENCY at once.
    fake.answerDelayMs = () => ANSWER_MS * (0.5 + Math.random());
    console.log(
      `vendor answering in ${ANSWER_MS / 2}-${(ANSWER_MS * 3) / 2} ms (${CONCURRENCY} chats in flight at any time)`,
    );
    await compare(PACED_CHATS, ANSWER_MS / CONCURRENCY);
    fake.answerDelayMs = () => 0;

    await fillLog(`${setup.masterDatabase}_bench`, LOG_ROWS);
    for (const path of ['/api/ai/stats', '/api/ai/stats/costs', '/api/ai/stats/conversations']) {
      const get = () =>
        new Promise<Answer>((resolve, reject) => {
          const req = http.get({ host: '127.0.0.1', port, path, agent, headers: auth }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
          });
          req.on('error', reject);
        });
      await get();
      const run = await timed(STATS_CALLS, 1, get, 200);
      report(`GET ${path.replace('/api/ai/', '')}`, run.sorted, run.failures);
    }
    console.log(`  (stats target: p95 under 100 ms over 1,000,000 exchanges; here ${LOG_ROWS})`);
  } finally {
    agent.destroy();
    worker.kill('SIGKILL');
    await api.stop();
    await fake.stop();
  }
}

if (require.main === module) {
  withBenchRun(main).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
