import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { clientDatabase, sql } from '../test/support/pg';
import { databaseUrl } from '../test/support/test-env';
import { SmtpSink } from '../test/support/smtp-sink';
import { bootApp, provisionClient } from '../test/support/test-app';
import { CONTRACT_EXEMPT_HEADER } from '../test/support/contract/contract-hook';
import { BENCH_SECRETS, fmt, withBenchRun } from './bench-env';
import { ASSETS, percentile, SAMPLES, timed } from './cms-scenario';

/** Rows of the custom table (100,000 for the real figures; set lower to prove the scenario runs). */
const ROWS = Number(process.env.BENCH_CMS_ROWS ?? 100_000);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** Fields added one after the other, each through the API and beside it by a bare ALTER TABLE. */
const ADD_FIELD_ROUNDS = Number(process.env.BENCH_CMS_ADD_FIELDS ?? 5);

/** Latencies of `SAMPLES` sequential requests, after a short warm-up. */
async function latencies(make: (i: number) => Promise<Response>): Promise<number[]> {
  return timed(async (i) => {
    const res = await make(i);
    const body = await res.text();
    if (res.status !== 200) throw new Error(`bench request answered ${res.status}: ${body.slice(0, 300)}`);
  });
}

/** Inserts per second of the bare INSERT from CONNECTIONS clients for DURATION_S. */
async function bareInserts(pool: Pool, company: number): Promise<number> {
  const end = Date.now() + DURATION_S * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        await pool.query(
          `INSERT INTO cms_bench_assets (company_id, created_by_id, updated_by_id, name, capacity, weight, price, active, level)
           VALUES ($8, $1, $1, $2, $3, $4, $5, $6, $7) RETURNING id`,
          [1, 'Created', 5, 1.5, '9.99', true, 'LOW', company],
        );
        done++;
      }
    }),
  );
  return done / DURATION_S;
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
    // The harness checks test answers against the OpenAPI document; a bench measures the app alone.
    const headers = {
      'X-Client-ID': 'benchcms',
      Authorization: `Bearer ${client.adminToken}`,
      [CONTRACT_EXEMPT_HEADER]: '1',
    };
    const created = await t.http().post('/api/cms/content-types').set(headers).send(ASSETS);
    if (created.status !== 201)
      throw new Error(`content type: ${created.status} ${JSON.stringify(created.body)}`);
    const db = clientDatabase(t.masterDatabase, 'benchcms');
    // A new type is company-scoped: the rows go to the admin's company, as the API's records do.
    const [{ company }] = await sql<{ company: number }>(
      db,
      'SELECT company_id AS company FROM users WHERE email = $1',
      [client.adminEmail],
    );
    await sql(
      db,
      `INSERT INTO cms_bench_assets (company_id, code, name, description, capacity, weight, price, active, installed_on, level, extra)
       SELECT $2::int, 'A-' || g, 'Asset ' || g, 'Bench asset number ' || g, g % 1000, g * 0.5, (g % 10000) / 100.0, g % 2 = 0,
              DATE '2020-01-01' + (g % 2000), (ARRAY['LOW','MEDIUM','HIGH'])[1 + g % 3], jsonb_build_object('n', g)
         FROM generate_series(1, $1::int) g`,
      [ROWS, company],
    );
    await sql(db, 'ANALYZE cms_bench_assets');
    const base = `http://127.0.0.1:${(t.app.getHttpServer() as { address(): { port: number } }).address().port}`;

    const pages = Math.max(1, Math.floor(ROWS / 25));
    const bare = new Pool({ connectionString: databaseUrl(db), max: CONNECTIONS });
    const bareQuery = (text: string, params: unknown[] = []) => bare.query(text, params);
    const columns = `id, created_at, updated_at, created_by_id, updated_by_id, code, name, description, capacity,
      weight, price::float8, active, installed_on::text, level, extra`;
    const listPage = (page: number) =>
      fetch(`${base}/api/cms/bench_assets?sort=code&order=ASC&pageSize=25&page=${page}`, { headers });
    // The same page in bare SQL: the rows by the unique index and the total, side by side.
    const barePage = (page: number) =>
      Promise.all([
        bareQuery(`SELECT ${columns} FROM cms_bench_assets ORDER BY code LIMIT 25 OFFSET $1`, [
          (page - 1) * 25,
        ]),
        bareQuery('SELECT count(*) FROM cms_bench_assets'),
      ]);
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const firstPage = (i: number) => 1 + (i % Math.min(40, pages));
    const anyPage = (i: number) => 1 + ((i * 7919) % pages);
    const code = (i: number) => `A-${1 + ((i * 7919) % ROWS)}`;
    // The pages a person browses (the first 40), and any page of the table (OFFSET grows with it).
    const figures: [string, number[], number[]][] = [];
    figures.push([
      'list page 1-40 sorted by code',
      await latencies((i) => listPage(firstPage(i))),
      await timed((i) => barePage(firstPage(i))),
    ]);
    figures.push([
      'list, any page (deep OFFSET)',
      await latencies((i) => listPage(anyPage(i))),
      await timed((i) => barePage(anyPage(i))),
    ]);
    figures.push([
      'search by code',
      await latencies((i) => post('/api/cms/bench_assets/search', { code: code(i) })),
      await timed((i) =>
        Promise.all([
          bareQuery(`SELECT ${columns} FROM cms_bench_assets WHERE code = $1 ORDER BY id DESC LIMIT 25`, [
            code(i),
          ]),
          bareQuery('SELECT count(*) FROM cms_bench_assets WHERE code = $1', [code(i)]),
        ]),
      ),
    ]);
    const nested = (i: number) => ({
      $or: [
        { level: 'HIGH', capacity: { $gt: 990 - (i % 10) } },
        {
          $and: [
            { active: true },
            { name: { $startsWith: `Asset 9${i % 10}` } },
            { $not: { price: { $lt: 50 } } },
          ],
        },
      ],
    });
    figures.push([
      'search, nested $or filter',
      await latencies((i) => post('/api/cms/bench_assets/search?sort=code&order=ASC', nested(i))),
      await timed((i) => {
        const where = `((level = $1 AND capacity > $2) OR (active = $3 AND name LIKE $4 AND (price < $5) IS NOT TRUE))`;
        const values = ['HIGH', 990 - (i % 10), true, `Asset 9${i % 10}%`, 50];
        return Promise.all([
          bareQuery(`SELECT ${columns} FROM cms_bench_assets WHERE ${where} ORDER BY code LIMIT 25`, values),
          bareQuery(`SELECT count(*) FROM cms_bench_assets WHERE ${where}`, values),
        ]);
      }),
    ]);
    const grouped = {
      aggregate: { count: ['*'], avg: ['price'], max: ['capacity'] },
      groupBy: ['level', { field: 'installedOn', interval: 'year' }],
      filter: { active: true },
    };
    figures.push([
      'aggregate, groupBy level and year',
      await latencies(() => post('/api/cms/bench_assets/aggregate', grouped)),
      await timed(() =>
        bareQuery(
          `SELECT level, date_trunc('year', installed_on)::date::text AS y, count(*), avg(price)::float8, max(capacity)::float8
             FROM cms_bench_assets WHERE active = $1 GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 1001`,
          [true],
        ),
      ),
    ]);

    const record = { name: 'Created', capacity: 5, weight: 1.5, price: 9.99, active: true, level: 'LOW' };
    const units = await throughput(`${base}/api/units`, headers, { name: 'Bench unit', capacityMw: 5 });
    const cms = await throughput(`${base}/api/cms/bench_assets`, headers, record);
    const bareRps = await bareInserts(bare, company);

    // Adding a field. The inserts above leave the table to autovacuum, whose lock an ALTER TABLE
    // waits on until PostgreSQL cancels it (deadlock_timeout, 1 s): VACUUM first, so that the
    // figures are those of the change, then API PUTs and bare ALTER TABLEs of the same kind of
    // column in turn, each adding one nullable column to the filled table.
    const vacuuming = await bareQuery(
      `SELECT 1 FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' AND query LIKE '%cms_bench_assets%'`,
    );
    const firstStart = performance.now();
    await t
      .http()
      .put('/api/cms/content-types/bench_assets')
      .set(headers)
      .send({ attributes: { ...ASSETS.attributes, first: { type: 'string' } } })
      .expect(200);
    const firstPut = performance.now() - firstStart;
    await bareQuery('VACUUM (ANALYZE) cms_bench_assets');
    const added: Record<string, unknown> = { first: { type: 'string' } };
    const putTimes: number[] = [];
    const alterTimes: number[] = [];
    for (let i = 0; i < ADD_FIELD_ROUNDS; i++) {
      added[`added${i}`] = { type: i % 2 ? 'integer' : 'string' };
      const start = performance.now();
      const put = await t
        .http()
        .put('/api/cms/content-types/bench_assets')
        .set(headers)
        .send({ attributes: { ...ASSETS.attributes, ...added } });
      putTimes.push(performance.now() - start);
      if (put.status !== 200) throw new Error(`add field: ${put.status} ${JSON.stringify(put.body)}`);
      const bareStart = performance.now();
      await bareQuery(
        `ALTER TABLE cms_bench_assets ADD COLUMN bare_added${i} ${i % 2 ? 'integer' : 'varchar(255)'}`,
      );
      alterTimes.push(performance.now() - bareStart);
    }
    // What a PUT read before it checked enumerations only when they lose values: every row.
    const scanStart = performance.now();
    await bareQuery(
      `SELECT 1 FROM cms_bench_assets WHERE level IS NOT NULL AND NOT (level::text = ANY($1::text[])) LIMIT 1`,
      [['LOW', 'MEDIUM', 'HIGH']],
    );
    const enumScan = performance.now() - scanStart;
    await bare.end();

    const ratio = cms.rps / units.rps;
    console.log(
      `\nCustom tables: a 10-field type with ${ROWS} rows (${SAMPLES} sequential samples per latency); API beside bare SQL`,
    );
    for (const [name, api, sqlOnly] of figures) {
      const [a, b] = [percentile(api, 95), percentile(sqlOnly, 95)];
      console.log(
        `  ${name.padEnd(34)}: p50 ${fmt(percentile(api, 50))} ms, p95 ${fmt(a)} ms; bare SQL p95 ${fmt(b)} ms (ratio ${fmt(a / b, 2)})`,
      );
    }
    console.log(
      `  POST /api/units                   : ${fmt(units.rps, 0)} req/s (non-2xx ${units.non2xx}), ${CONNECTIONS} connections, ${DURATION_S} s`,
    );
    console.log(
      `  POST /api/cms/bench_assets        : ${fmt(cms.rps, 0)} req/s (non-2xx ${cms.non2xx}); bare INSERT ${fmt(bareRps, 0)}/s (ratio ${fmt(cms.rps / bareRps, 2)})`,
    );
    console.log(
      `  ratio custom record / unit        : ${fmt(ratio, 2)} (target >= 0.70: ${ratio >= 0.7 ? 'met' : 'NOT met'})`,
    );
    const [putMedian, alterMedian] = [percentile(putTimes, 50), percentile(alterTimes, 50)];
    console.log(
      `  adding a field to the table       : PUT median ${fmt(putMedian, 0)} ms (${putTimes.map((v) => fmt(v, 0)).join(', ')}); bare ALTER TABLE median ${fmt(alterMedian, 1)} ms (${alterTimes.map((v) => fmt(v, 0)).join(', ')}) (ratio ${fmt(putMedian / alterMedian, 2)})`,
    );
    console.log(
      `  the first PUT, right after the inserts: ${fmt(firstPut, 0)} ms (autovacuum on the table then: ${vacuuming.rowCount ? 'yes' : 'no'})`,
    );
    console.log(`  the enumeration scan PUT no longer does : ${fmt(enumScan, 1)} ms`);
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
