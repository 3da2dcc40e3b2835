/**
 * Search ranking over every match: BENCH_RANK_DOCS completed documents in one company (generated
 * text, about 80 words each), half of them with the word `valve` 1 to 4 times; then
 * BENCH_RANK_QUERIES searches over HTTP that match about half of them (`valve`, `valve pump`,
 * `valve turbine`, pages 1 to 5), one after the other: p50/p95/max of the answer (every match ranked
 * by word levels; total exact up to SEARCH_EXACT_TOTAL, 1,000, then estimated). Beside it, in the
 * same run and on the same data:
 *
 * - a bare HTTP baseline (GET of one file record: the same auth and tenancy path);
 * - the same top rows as bare SQL: through a RUM index (the previous way, built here for the
 *   comparison when the server has the extension), and by scoring every match without an index
 *   walk (GIN bitmap + the levels score of each match + sort), plus the former ranking of the newest
 *   2,000 matches only (which missed older, better documents).
 *
 * Target: search p95 < 50 ms at 100,000 documents.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/search-ranking.js
 */
import { Client } from 'pg';
import { bootApp, superAdminToken } from '../test/support/test-app';
import { databaseUrl } from '../test/support/test-env';
import { sql } from '../test/support/pg';
import { fmt, runAlone, withBenchRun } from './bench-env';

const DOCS = Number(process.env.BENCH_RANK_DOCS ?? 100_000);
const QUERIES = Number(process.env.BENCH_RANK_QUERIES ?? 300);

const WORDS = (
  'turbine generator bearing boiler pump inspection maintenance report permit emission stack ' +
  'outage transformer breaker relay cable insulation vibration pressure temperature coolant feedwater ' +
  'condenser exciter rotor stator winding gearbox blade tower nacelle inverter panel battery substation'
).split(' ');

const QUERY_SET = ['valve', 'valve pump', 'valve turbine'];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const line = (name: string, s: number[]) =>
  `${name}: p50 ${fmt(percentile(s, 0.5))} ms, p95 ${fmt(percentile(s, 0.95))} ms, max ${fmt(s[s.length - 1])} ms`;

const TSQ = `websearch_to_tsquery('english', $2)`;
const SQL_RUM = `WITH best AS (
    SELECT d.id, d.search_vector <=> ${TSQ} AS distance FROM document_contents d
     WHERE d.company_id = $1 AND d.search_vector @@ ${TSQ} ORDER BY d.search_vector <=> ${TSQ} LIMIT $3)
  SELECT best.id, c.matched FROM (SELECT count(*) AS matched FROM (SELECT 1 FROM document_contents d
     WHERE d.company_id = $1 AND d.search_vector @@ ${TSQ} LIMIT 1001) m) c LEFT JOIN best ON true`;
const SQL_RANK_ALL = `SELECT d.id, (SELECT coalesce(sum(substring(x FROM '#(\\d+)$')::int), 0)
      FROM unnest(tsvector_to_array(d.search_levels)) x
     WHERE split_part(x, '#', 1) = ANY(tsvector_to_array(to_tsvector('english', $2)))) AS score
    FROM document_contents d WHERE d.company_id = $1 AND d.search_vector @@ ${TSQ}
   ORDER BY score DESC, d.id DESC LIMIT $3`;
const SQL_NEWEST_WINDOW = `WITH candidates AS (
    SELECT d.id, ts_rank(d.search_vector, ${TSQ}) AS rank FROM document_contents d
     WHERE d.company_id = $1 AND d.search_vector @@ ${TSQ} ORDER BY -d.id LIMIT 2001),
  ranked AS (SELECT id, rank, count(*) OVER () AS matched FROM candidates ORDER BY -id LIMIT 2000)
  SELECT id, rank, matched FROM ranked ORDER BY rank DESC, id DESC LIMIT $3`;

async function seed(db: string, companyId: number) {
  const started = Date.now();
  const batch = 5000;
  for (let from = 0; from < DOCS; from += batch) {
    const n = Math.min(batch, DOCS - from);
    await sql(
      db,
      `WITH files AS (
         INSERT INTO uploaded_files (company_id, name, hash, ext, mime, size, provider, folder_path, storage_key)
         SELECT $1, 'doc-' || g || '.pdf', 'h' || g, '.pdf', 'application/pdf', 1000, 'local', 'bench',
                'bench/h' || g || '.pdf'
           FROM generate_series($2::int, $3::int) g RETURNING id),
       texts AS (
         SELECT f.id, (SELECT string_agg(($4::text[])[1 + floor(random() * array_length($4::text[], 1))::int], ' ')
                         FROM generate_series(1, 60 + (f.id % 40)) AS w)
                      || CASE WHEN f.id % 2 = 0 THEN repeat(' valve', 1 + floor(random() * 4)::int) ELSE '' END
                      AS body
           FROM files f)
       INSERT INTO document_contents (company_id, file_id, status, extracted_text, text_length, word_count,
         ocr_confidence, ocr_language, processed_at, indexed_for_search, search_vector)
       SELECT $1, id, 'completed', body, length(body), 80, 1, 'en', now(), true, to_tsvector('english', body)
         FROM texts`,
      [companyId, from, from + n - 1, WORDS],
    );
  }
  await sql(db, 'VACUUM ANALYZE document_contents');
  console.log(
    `search ranking: ${DOCS} documents seeded and indexed in ${fmt((Date.now() - started) / 1000)} s`,
  );
}

async function timeSql(db: string, text: string, companyId: number, queries: [string, number][]) {
  const client = new Client({ connectionString: databaseUrl(db) });
  await client.connect();
  try {
    const times: number[] = [];
    for (const [q, page] of queries) {
      const started = process.hrtime.bigint();
      await client.query(text, [companyId, q, (page + 1) * 20 + 1]);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    return times.sort((x, y) => x - y);
  } finally {
    await client.end();
  }
}

async function benchSearchRanking() {
  const t = await bootApp({ env: { QUEUE_PROCESSORS_ENABLED: 'false' } });
  try {
    const db = t.masterDatabase;
    const [rum] = await sql<{ n: number }>(
      db,
      `SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'rum'`,
    );
    const [company] = await sql<{ id: number }>(db, 'SELECT min(id) AS id FROM companies');
    await seed(db, company.id);
    if (rum.n)
      await sql(
        db,
        `CREATE INDEX bench_rank_rum ON document_contents USING rum (search_vector public.rum_tsvector_ops)`,
      );
    const [file] = await sql<{ id: number }>(db, 'SELECT min(id) AS id FROM uploaded_files');
    const token = await superAdminToken(t);
    const time = async (path: string, query: Record<string, unknown>) => {
      const started = process.hrtime.bigint();
      const res = await t.http().get(path).query(query).set('Authorization', `Bearer ${token}`);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return {
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        body: res.body as { totalElements: number },
      };
    };
    const queries: [string, number][] = Array.from({ length: QUERIES }, (_, i) => [
      QUERY_SET[i % QUERY_SET.length],
      Math.floor(i / QUERY_SET.length) % 5,
    ]);
    for (const [q, page] of queries.slice(0, 15))
      await time('/search/documents', { companyId: company.id, q, page });

    const search: number[] = [];
    const totals = new Map<string, number>();
    for (const [q, page] of queries) {
      const { ms, body } = await time('/search/documents', { companyId: company.id, q, page });
      search.push(ms);
      totals.set(q, body.totalElements);
    }
    const bare: number[] = [];
    for (let i = 0; i < QUERIES; i++) bare.push((await time(`/api/files/${file.id}`, {})).ms);
    search.sort((x, y) => x - y);
    bare.sort((x, y) => x - y);
    const sqlQueries = queries.slice(0, Math.min(60, queries.length));
    const sqlRum = rum.n ? await timeSql(db, SQL_RUM, company.id, sqlQueries) : [];
    if (rum.n) await sql(db, 'DROP INDEX bench_rank_rum');
    const sqlAll = await timeSql(db, SQL_RANK_ALL, company.id, sqlQueries);
    const sqlWindow = await timeSql(db, SQL_NEWEST_WINDOW, company.id, sqlQueries);

    console.log(
      `search ranking: matches per query ${[...totals].map(([q, n]) => `"${q}" ${n}`).join(', ')} of ${DOCS}`,
    );
    console.log(line(`search over every match, HTTP (${QUERIES} queries, pages 1-5)`, search));
    console.log(line('baseline GET /api/files/{id}, HTTP', bare));
    if (rum.n)
      console.log(
        line(
          `SQL: RUM top rows + count up to 1,000, the previous way (${sqlQueries.length} queries)`,
          sqlRum,
        ),
      );
    else console.log('SQL: RUM not measured, the server has no rum extension (Debian: postgresql-15-rum)');
    console.log(line('SQL: every match scored and sorted (GIN + levels score + sort)', sqlAll));
    console.log(line('SQL: newest 2,000 matches ranked (the former window)', sqlWindow));
    const p95 = percentile(search, 0.95);
    console.log(
      `search ranking: p95 ${fmt(p95)} ms (target < 50 ms); HTTP search p95 / bare GET p95 ` +
        `${fmt(p95 / percentile(bare, 0.95), 2)}; HTTP search p95 / SQL p95 of scoring every match ` +
        `${fmt(p95 / percentile(sqlAll, 0.95), 3)}` +
        (rum.n ? `, / SQL p95 of RUM alone ${fmt(p95 / percentile(sqlRum, 0.95), 3)}` : ''),
    );
  } finally {
    await t.close();
  }
}

export async function main(): Promise<void> {
  await withBenchRun(benchSearchRanking);
}

if (require.main === module) runAlone(benchSearchRanking);
