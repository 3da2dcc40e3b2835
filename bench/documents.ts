/**
 * Documents bench, two parts:
 *
 * 1. Embedded OCR throughput: BENCH_OCR_IMAGES rendered pages (several lines of text each) read by
 *    the embedded engine with BENCH_OCR_WORKERS Tesseract workers, in pages per minute, beside the
 *    `tesseract` command-line program (Debian package tesseract-ocr) on the same images with the same
 *    number of processes (OMP_THREAD_LIMIT=1 each) in the same run. Target: at least 0.8 of its
 *    throughput. Skipped with a note when the program is not installed. Beside it, each side's CPU
 *    time per page (steadier than pages per minute on a shared machine) and how many of the pages'
 *    words it read in place.
 * 2. Search: BENCH_SEARCH_DOCS completed documents (generated text, indexed as the pipeline does)
 *    in one company, then BENCH_SEARCH_QUERIES searches over HTTP one after the other: p50/p95/max,
 *    beside a bare baseline (GET of one file record, the same auth and tenancy path). Target: p95
 *    under 50 ms at 100,000 documents.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/documents.js
 *
 * Defaults are the target scale (BENCH_OCR_IMAGES 40, BENCH_OCR_WORKERS 2, BENCH_SEARCH_DOCS 100000,
 * BENCH_SEARCH_QUERIES 300); set smaller values to prove it runs.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentsSettings } from '../src/documents/documents.settings';
import { EmbeddedOcrEngine } from '../src/documents/ocr/embedded-engine';
import { renderTextPng } from '../test/documents/fixtures';
import { sql } from '../test/support/pg';
import { bootApp, superAdminToken } from '../test/support/test-app';
import { fmt, withBenchRun } from './bench-env';

const IMAGES = Number(process.env.BENCH_OCR_IMAGES ?? 40);
const OCR_WORKERS = Number(process.env.BENCH_OCR_WORKERS ?? 2);
const DOCS = Number(process.env.BENCH_SEARCH_DOCS ?? 100_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 300);

const WORDS = (
  'turbine generator bearing boiler valve pump inspection maintenance report permit emission stack ' +
  'outage transformer breaker relay cable insulation vibration pressure temperature coolant feedwater ' +
  'condenser exciter rotor stator winding gearbox blade tower nacelle inverter panel battery substation'
).split(' ');

/** A pseudo-random generator with a seed, so every run reads the same pages and queries. */
function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function page(rand: () => number, lines: number, wordsPerLine: number): string[] {
  return Array.from({ length: lines }, () =>
    Array.from({ length: wordsPerLine }, () => WORDS[Math.floor(rand() * WORDS.length)].toUpperCase()).join(
      ' ',
    ),
  );
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

function tesseractCli(path: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'tesseract',
      [path, '-', '-l', 'eng'],
      { env: { ...process.env, OMP_THREAD_LIMIT: '1' } },
      (err, out) => (err ? reject(new Error(err.message)) : resolve(out)),
    ),
  );
}

/** How many words of the page, line by line in order, the text has on the same line at the same place. */
function matchingWords(lines: string[], text: string): number {
  const read = text.split('\n').filter((line) => line.trim());
  return lines
    .map((line, i) => {
      const got = (read[i] ?? '').trim().split(/\s+/);
      return line.split(' ').filter((word, j) => got[j] === word).length;
    })
    .reduce((a, b) => a + b, 0);
}

/** CPU milliseconds of this process (all its threads) and of its ended children (Linux /proc). */
function cpuMs(): { own: number; children: number } {
  const { user, system } = process.cpuUsage();
  let children = NaN;
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    children = (Number(fields[13]) + Number(fields[14])) * 10; // cutime + cstime, in 10 ms ticks
  } catch {
    // not Linux: the CLI's CPU time is not shown
  }
  return { own: (user + system) / 1000, children };
}

async function benchOcr() {
  const rand = random(7);
  const pages = Array.from({ length: IMAGES }, () => page(rand, 12, 6));
  const images = pages.map((lines) => renderTextPng(lines));
  const engine = new EmbeddedOcrEngine(Object.assign(new DocumentsSettings(), { OCR_WORKERS }));
  try {
    // Every worker created and through its first page, not timed (as the CLI's first run below).
    await Promise.all(images.slice(0, OCR_WORKERS).map((png) => engine.recognize(png, 'image/png', 'en')));
    const started = Date.now();
    const cpuStarted = cpuMs().own;
    let words = 0;
    await pool(images, OCR_WORKERS, async (png) => {
      const { text } = await engine.recognize(png, 'image/png', 'en');
      words += matchingWords(pages[images.indexOf(png)], text);
    });
    const embeddedPpm = (IMAGES / (Date.now() - started)) * 60_000;
    const embeddedCpu = (cpuMs().own - cpuStarted) / IMAGES;
    const total = pages.flat().reduce((n, line) => n + line.split(' ').length, 0);
    console.log(
      `ocr embedded: ${IMAGES} pages, ${OCR_WORKERS} workers, ${fmt(embeddedPpm)} pages/min, ` +
        `CPU ${fmt(embeddedCpu, 0)} ms/page, ${words} of ${total} words read right`,
    );

    const dir = await mkdtemp(join(tmpdir(), 'bench-ocr-'));
    try {
      const paths = await Promise.all(
        images.map(async (png, i) => {
          const path = join(dir, `page-${i}.png`);
          await writeFile(path, png);
          return path;
        }),
      );
      try {
        await tesseractCli(paths[0]);
      } catch {
        console.log('ocr tesseract CLI: not installed (apt-get install tesseract-ocr), comparison skipped');
        return;
      }
      const cliStarted = Date.now();
      const cliCpuStarted = cpuMs().children;
      let cliWords = 0;
      await pool(paths, OCR_WORKERS, async (path) => {
        const text = await tesseractCli(path);
        cliWords += matchingWords(pages[paths.indexOf(path)], text);
      });
      const cliPpm = (IMAGES / (Date.now() - cliStarted)) * 60_000;
      const cliCpu = (cpuMs().children - cliCpuStarted) / IMAGES;
      console.log(
        `ocr tesseract CLI: ${IMAGES} pages, ${OCR_WORKERS} processes, ${fmt(cliPpm)} pages/min, ` +
          `CPU ${fmt(cliCpu, 0)} ms/page, ${cliWords} of ${total} words read right`,
      );
      console.log(`ocr ratio embedded/CLI: ${fmt(embeddedPpm / cliPpm, 2)} (target >= 0.8)`);
      // CPU per page does not depend on what else the machine runs, unlike pages per minute.
      console.log(`ocr CPU per page CLI/embedded: ${fmt(cliCpu / embeddedCpu, 2)}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    await engine.onModuleDestroy();
  }
}

async function benchSearch() {
  const t = await bootApp({ env: { QUEUE_PROCESSORS_ENABLED: 'false' } });
  try {
    const db = t.masterDatabase;
    const [company] = await sql<{ id: number }>(db, 'SELECT min(id) AS id FROM companies');
    const [file] = await sql<{ id: number }>(
      db,
      `INSERT INTO uploaded_files (company_id, name, hash, ext, mime, size, provider, folder_path, storage_key)
       VALUES ($1, 'bench.pdf', 'bench', '.pdf', 'application/pdf', 1, 'local', 'companies/1/bench', 'companies/1/bench/bench.pdf')
       RETURNING id`,
      [company.id],
    );
    const seeded = Date.now();
    const batch = 5000;
    for (let from = 0; from < DOCS; from += batch) {
      const n = Math.min(batch, DOCS - from);
      // One file row per document (file_id is unique), then the documents with text built in SQL.
      await sql(
        db,
        `WITH files AS (
           INSERT INTO uploaded_files (company_id, name, hash, ext, mime, size, provider, folder_path, storage_key)
           SELECT $1, 'doc-' || g || '.pdf', 'h' || g, '.pdf', 'application/pdf', 1000, 'local', 'companies/1/bench',
                  'companies/1/bench/h' || g || '.pdf'
             FROM generate_series($2::int, $3::int) g RETURNING id),
         texts AS (
           SELECT f.id, (SELECT string_agg(($4::text[])[1 + floor(random() * array_length($4::text[], 1))::int], ' ')
                           FROM generate_series(1, 200 + (f.id % 7)) AS w) AS body
             FROM files f)
         INSERT INTO document_contents (company_id, file_id, status, extracted_text, text_length, word_count,
           ocr_confidence, ocr_language, processed_at, indexed_for_search, search_vector)
         SELECT $1, id, 'completed', body, length(body), 200, 1, 'en', now(), true, to_tsvector('english', body)
           FROM texts`,
        [company.id, from, from + n - 1, WORDS],
      );
    }
    await sql(db, 'ANALYZE document_contents');
    console.log(`search: ${DOCS} documents seeded in ${fmt((Date.now() - seeded) / 1000)} s`);

    const token = await superAdminToken(t);
    const time = async (path: string, query: Record<string, unknown>) => {
      const started = process.hrtime.bigint();
      const res = await t.http().get(path).query(query).set('Authorization', `Bearer ${token}`);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const rand = random(11);
    const queries = Array.from({ length: QUERIES }, () => {
      const a = WORDS[Math.floor(rand() * WORDS.length)];
      const b = WORDS[Math.floor(rand() * WORDS.length)];
      return rand() < 0.5 ? a : `${a} ${b}`;
    });
    for (let i = 0; i < 10; i++) await time('/search/documents', { companyId: company.id, q: queries[i] });
    const search: number[] = [];
    for (const q of queries) search.push(await time('/search/documents', { companyId: company.id, q }));
    const bare: number[] = [];
    for (let i = 0; i < QUERIES; i++) bare.push(await time(`/api/files/${file.id}`, {}));
    search.sort((x, y) => x - y);
    bare.sort((x, y) => x - y);
    const line = (name: string, s: number[]) =>
      `${name}: p50 ${fmt(percentile(s, 0.5))} ms, p95 ${fmt(percentile(s, 0.95))} ms, max ${fmt(s[s.length - 1])} ms`;
    console.log(line(`search over ${DOCS} documents (${QUERIES} queries)`, search));
    console.log(line('baseline GET /api/files/{id}', bare));
    console.log(
      `search p95 / baseline p95: ${fmt(percentile(search, 0.95) / percentile(bare, 0.95), 2)} (target: search p95 < 50 ms at 100,000)`,
    );
  } finally {
    await t.close();
  }
}

export async function main(): Promise<void> {
  await withBenchRun(async () => {
    await benchOcr();
    await benchSearch();
  });
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
