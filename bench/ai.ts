/**
 * AI chat gateway bench, against a local fake vendor that answers at once (OpenAI wire format):
 * - added latency: BENCH_AI_CHATS chats at BENCH_AI_CONCURRENCY (50) at a time, straight to the
 *   vendor (the bare baseline) and through POST /api/ai/chat (auth, validation, the per-user rate in
 *   Redis, the SDK, metrics, the exchange queued for the log); p50/p95 of both and their difference;
 * - statistics: BENCH_AI_LOG_ROWS exchanges (1,000,000) written straight into the log table, then
 *   GET /api/ai/stats and /api/ai/stats/costs BENCH_AI_STATS_CALLS times each; p50/p95.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/ai.js
 *
 * BENCH_AI_LOGGING=false runs the chats without the log (the statistics part then answers 400).
 * Small scale: BENCH_AI_CHATS=500 BENCH_AI_LOG_ROWS=20000. Figures mean something only on a quiet
 * machine. It boots the real app against a throw-away database and drops it at the end.
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { ROLLUP_COLUMNS, withRollups } from '../src/ai/log/exchange-rollups';
import { FakeVendor } from '../test/support/fake-ai-vendor';
import { SmtpSink } from '../test/support/smtp-sink';
import { bootApp, provisionClient } from '../test/support/test-app';
import { databaseUrl } from '../test/support/test-env';
import { fmt, withBenchRun } from './bench-env';

const CHATS = Number(process.env.BENCH_AI_CHATS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_AI_CONCURRENCY ?? 50);
const LOG_ROWS = Number(process.env.BENCH_AI_LOG_ROWS ?? 1_000_000);
const STATS_CALLS = Number(process.env.BENCH_AI_STATS_CALLS ?? 20);

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

function post(port: number, path: string, body: string, headers: Record<string, string>): Promise<number> {
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
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `total` calls, `concurrency` at a time; the duration of each in ms, sorted. */
async function timed(total: number, concurrency: number, call: () => Promise<number>, ok: number) {
  const durations: number[] = [];
  let next = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const started = performance.now();
        const status = await call().catch(() => 0);
        durations.push(performance.now() - started);
        if (status !== ok) failures++;
      }
    }),
  );
  return { sorted: durations.sort((a, b) => a - b), failures };
}

function report(label: string, sorted: number[], failures: number) {
  console.log(
    `  ${label.padEnd(22)} n=${sorted.length} p50=${fmt(percentile(sorted, 50), 2)} ms ` +
      `p95=${fmt(percentile(sorted, 95), 2)} ms failures=${failures}`,
  );
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
         SELECT gen_random_uuid(), now() - (i % 2592000) * interval '1 second', 1 + i % 50, 'user' || (i % 50), 1,
                (ARRAY['OPENAI','ANTHROPIC','GEMINI','AZURE_OPENAI','OLLAMA'])[1 + i % 5],
                'model-' || (i % 12), 10 + i % 90, 5 + i % 40, 15 + i % 90 + i % 40, (i % 1000) / 1e6,
                20 + i % 2000, 'conv-' || (i % 100000), NULL, i % 50 <> 0
           FROM generate_series(1, $1) AS i
         RETURNING ${ROLLUP_COLUMNS}`,
      ),
      [rows],
    );
    await pg.query(
      'ANALYZE ai_exchanges, ai_exchange_hours, ai_exchange_user_hours, ai_exchange_latency_days',
    );
  } finally {
    await pg.end();
  }
}

export async function main() {
  console.log(`AI chat gateway: ${CHATS} chats, ${CONCURRENCY} at a time; stats over ${LOG_ROWS} exchanges`);
  const fake = await new FakeVendor().start();
  const sink = await new SmtpSink().start();
  const t = await bootApp({
    env: {
      SMTP_URL: sink.url,
      OPENAI_API_KEY: 'sk-bench',
      OPENAI_BASE_URL: `${fake.root}/v1`,
      AI_LOGGING_ENABLED: process.env.BENCH_AI_LOGGING ?? 'true',
      AI_RATE_LIMIT_PER_USER: String(CHATS * 10),
    },
  });
  try {
    const bench = await provisionClient(t, sink, 'bench');
    const port = (t.app.getHttpServer().address() as AddressInfo).port;
    const messages = [{ role: 'user', content: 'Summarise the outage log of unit 4 in one line.' }];
    const vendorBody = JSON.stringify({ model: 'gpt-4o-mini', messages });
    const chatBody = JSON.stringify({ provider: 'openai', messages });
    const auth = { 'X-Client-ID': 'bench', Authorization: `Bearer ${bench.adminToken}` };
    const direct = () =>
      post(fake.port, '/v1/chat/completions', vendorBody, { Authorization: 'Bearer sk-bench' });
    const gateway = () => post(port, '/api/ai/chat', chatBody, auth);

    // Warm-up of both paths (JIT, pools, sockets), not counted.
    await timed(Math.min(200, CHATS), CONCURRENCY, direct, 200);
    await timed(Math.min(200, CHATS), CONCURRENCY, gateway, 200);
    const bare = await timed(CHATS, CONCURRENCY, direct, 200);
    const through = await timed(CHATS, CONCURRENCY, gateway, 200);
    report('vendor directly', bare.sorted, bare.failures);
    report('through the gateway', through.sorted, through.failures);
    console.log(
      `  added latency          p50=${fmt(percentile(through.sorted, 50) - percentile(bare.sorted, 50), 2)} ms ` +
        `p95=${fmt(percentile(through.sorted, 95) - percentile(bare.sorted, 95), 2)} ms (targets: 2 ms, 5 ms)`,
    );

    await fillLog(`${t.masterDatabase}_bench`, LOG_ROWS);
    for (const path of ['/api/ai/stats', '/api/ai/stats/costs', '/api/ai/stats/conversations']) {
      const get = () =>
        new Promise<number>((resolve, reject) => {
          const req = http.get({ host: '127.0.0.1', port, path, agent, headers: auth }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
        });
      await get();
      const run = await timed(STATS_CALLS, 1, get, 200);
      report(`GET ${path.replace('/api/ai/', '')}`, run.sorted, run.failures);
    }
    console.log('  (stats target: p95 under 100 ms over 1,000,000 exchanges)');
  } finally {
    agent.destroy();
    await t.close();
    await fake.stop();
    await sink.stop();
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
