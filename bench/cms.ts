import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { clientDatabase, sql } from '../test/support/pg';
import { SmtpSink } from '../test/support/smtp-sink';
import { bootApp, provisionClient } from '../test/support/test-app';
import { BENCH_SECRETS, fmt, withBenchRun } from './bench-env';

/** Rows of the custom table (100,000 for the real figures; set lower to prove the scenario runs). */
const ROWS = Number(process.env.BENCH_CMS_ROWS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_CMS_SAMPLES ?? 300);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

const ASSETS = {
  collectionName: 'bench_assets',
  attributes: {
    code: { type: 'uid', unique: true },
    name: { type: 'string', maxLength: 120 },
    description: { type: 'text' },
    capacity: { type: 'integer', min: 0 },
    weight: { type: 'float' },
    price: { type: 'decimal' },
    active: { type: 'boolean' },
    installedOn: { type: 'date' },
    level: { type: 'enumeration', enum: ['LOW', 'MEDIUM', 'HIGH'] },
    extra: { type: 'json' },
  },
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** Latencies of `SAMPLES` sequential requests, after a short warm-up. */
async function latencies(make: (i: number) => Promise<Response>): Promise<number[]> {
  for (let i = 0; i < 20; i++) await (await make(i)).arrayBuffer();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const start = performance.now();
    const res = await make(i);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`bench request answered ${res.status}`);
    times.push(performance.now() - start);
  }
  return times;
}

async function throughput(url: string, headers: Record<string, string>, body: unknown) {
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { rps: result.requests.average, non2xx: result.non2xx };
}

/**
 * Custom tables: a 10-field type with ROWS rows. List page sorted by a field and search by an
 * indexed field (p95 of sequential requests), record creation throughput beside POST /api/units in
 * the same run, and the time of adding a field to the filled table.
 */
export async function main(): Promise<void> {
  const sink = await new SmtpSink().start();
  const t = await bootApp({ env: { SMTP_URL: sink.url, LOG_LEVEL: 'error', ...BENCH_SECRETS } });
  try {
    const client = await provisionClient(t, sink, 'benchcms');
    const headers = { 'X-Client-ID': 'benchcms', Authorization: `Bearer ${client.adminToken}` };
    const created = await t.http().post('/api/cms/content-types').set(headers).send(ASSETS);
    if (created.status !== 201)
      throw new Error(`content type: ${created.status} ${JSON.stringify(created.body)}`);
    const db = clientDatabase(t.masterDatabase, 'benchcms');
    await sql(
      db,
      `INSERT INTO cms_bench_assets (code, name, description, capacity, weight, price, active, installed_on, level, extra)
       SELECT 'A-' || g, 'Asset ' || g, 'Bench asset number ' || g, g % 1000, g * 0.5, (g % 10000) / 100.0, g % 2 = 0,
              DATE '2020-01-01' + (g % 2000), (ARRAY['LOW','MEDIUM','HIGH'])[1 + g % 3], jsonb_build_object('n', g)
         FROM generate_series(1, $1::int) g`,
      [ROWS],
    );
    await sql(db, 'ANALYZE cms_bench_assets');
    const base = `http://127.0.0.1:${(t.app.getHttpServer() as { address(): { port: number } }).address().port}`;

    const pages = Math.max(1, Math.floor(ROWS / 25));
    const listPage = (page: number) =>
      fetch(`${base}/api/cms/bench_assets?sort=code&order=ASC&pageSize=25&page=${page}`, { headers });
    // The pages a person browses (the first 40), and any page of the table (OFFSET grows with it).
    const list = await latencies((i) => listPage(1 + (i % Math.min(40, pages))));
    const deep = await latencies((i) => listPage(1 + ((i * 7919) % pages)));
    const search = await latencies((i) =>
      fetch(`${base}/api/cms/bench_assets/search`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ code: `A-${1 + ((i * 7919) % ROWS)}` }),
      }),
    );

    const record = { name: 'Created', capacity: 5, weight: 1.5, price: 9.99, active: true, level: 'LOW' };
    const units = await throughput(`${base}/api/units`, headers, { name: 'Bench unit', capacityMw: 5 });
    const cms = await throughput(`${base}/api/cms/bench_assets`, headers, record);

    const start = performance.now();
    const put = await t
      .http()
      .put('/api/cms/content-types/bench_assets')
      .set(headers)
      .send({ attributes: { ...ASSETS.attributes, added: { type: 'string' } } });
    const addField = performance.now() - start;
    if (put.status !== 200) throw new Error(`add field: ${put.status} ${JSON.stringify(put.body)}`);

    const ratio = cms.rps / units.rps;
    console.log(
      `\nCustom tables: a 10-field type with ${ROWS} rows (${SAMPLES} sequential samples per latency)`,
    );
    console.log(
      `  list page of 25 sorted by code  : p50 ${fmt(percentile(list, 50))} ms, p95 ${fmt(percentile(list, 95))} ms, pages 1-40 (target p95 < 30 ms)`,
    );
    console.log(
      `  the same, any page of the table : p50 ${fmt(percentile(deep, 50))} ms, p95 ${fmt(percentile(deep, 95))} ms`,
    );
    console.log(
      `  search by an indexed field      : p50 ${fmt(percentile(search, 50))} ms, p95 ${fmt(percentile(search, 95))} ms (target p95 < 30 ms)`,
    );
    console.log(
      `  POST /api/units                 : ${fmt(units.rps, 0)} req/s (non-2xx ${units.non2xx}), ${CONNECTIONS} connections, ${DURATION_S} s`,
    );
    console.log(`  POST /api/cms/bench_assets      : ${fmt(cms.rps, 0)} req/s (non-2xx ${cms.non2xx})`);
    console.log(
      `  ratio custom record / unit      : ${fmt(ratio, 2)} (target >= 0.70: ${ratio >= 0.7 ? 'met' : 'NOT met'})`,
    );
    console.log(`  adding a field to the table     : ${fmt(addField, 0)} ms (target < 1000 ms)`);
  } finally {
    await t.close();
    await sink.stop();
  }
}

if (require.main === module) {
  void withBenchRun(main).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
