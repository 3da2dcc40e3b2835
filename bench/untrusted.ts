/**
 * Untrusted input bench: how much one client's worst-case uploads slow another client down when the
 * API runs the OCR processors itself (as `npm start` does). For BENCH_UNTRUSTED_SECONDS, client beta
 * reads `GET /api/units` with BENCH_UNTRUSTED_READERS requests in flight, first alone, then while
 * client acme uploads, round after round, a mix of bombs (a PDF inflating to 300 MiB, a DOCX to 400
 * MiB, a 30000×30000 PNG) and ordinary documents (PDF, DOCX, PNG), each round waited for to the end.
 * Prints beta's p50 / p99 for both phases and the p99 ratio (target: under 2), and how the
 * documents ended.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/untrusted.js
 */
import { docxBomb, pdfBomb, pngBomb } from '../test/documents/bombs';
import { renderTextPng, textDocx, textPdf } from '../test/documents/fixtures';
import { as, bootOcrApp, documentOf, enableOcr, upload } from '../test/documents/helpers';
import { provisionClient, TestApp } from '../test/support/test-app';
import { BENCH_SECRETS, fmt, withBenchRun } from './bench-env';

const SECONDS = Number(process.env.BENCH_UNTRUSTED_SECONDS ?? 30);
const READERS = Number(process.env.BENCH_UNTRUSTED_READERS ?? 4);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** Latencies of `GET /api/units` with READERS requests in flight until `until` resolves. */
async function readUnits(t: TestApp, headers: Record<string, string>, until: Promise<unknown>) {
  const latencies: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  await Promise.all(
    Array.from({ length: READERS }, async () => {
      while (!done) {
        const started = performance.now();
        await t.http().get('/api/units').set(headers).expect(200);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

async function mix(): Promise<[string, Buffer][]> {
  return [
    ['bomb.pdf', pdfBomb(300)],
    ['bomb.docx', docxBomb(400)],
    ['bomb.png', pngBomb(30000, 30000)],
    ['report.pdf', textPdf(['Quarterly emissions report', 'Boiler seven'])],
    ['letter.docx', await textDocx(['Permit renewal letter', 'Stack height'])],
    ['scan.png', renderTextPng(['TURBINE INSPECTION 2026', 'GENERATOR BEARING REPORT'])],
  ];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function main() {
  const app = await bootOcrApp({ ...BENCH_SECRETS, LOG_LEVEL: 'error' });
  const t = app.t;
  try {
    const acme = as((await provisionClient(t, app.sink, 'acme')).adminToken, 'acme');
    const beta = as((await provisionClient(t, app.sink, 'beta')).adminToken, 'beta');
    const companyId = await enableOcr(t, acme);
    const files = await mix();
    const ended: Record<string, number> = {};

    const alone = await readUnits(t, beta, sleep(SECONDS * 1000));
    const uploads = (async () => {
      const stop = Date.now() + SECONDS * 1000;
      while (Date.now() < stop) {
        const up = await upload(t, acme, companyId, files).expect(201);
        for (const [i, file] of (up.body as { id: number }[]).entries()) {
          const doc = await documentOf(t, acme, file.id, undefined, 300_000);
          const key = `${files[i][0]} ${doc.status}`;
          ended[key] = (ended[key] ?? 0) + 1;
        }
      }
    })();
    const loaded = await readUnits(t, beta, uploads);

    const line = (name: string, l: number[]) =>
      `${name}: ${l.length} requests, p50 ${fmt(percentile(l, 0.5))} ms, p99 ${fmt(percentile(l, 0.99))} ms`;
    console.log(
      `\nUntrusted input (${SECONDS} s each, ${READERS} readers of GET /api/units as another client)`,
    );
    console.log(`  ${line('alone', alone)}`);
    console.log(`  ${line('with bombs', loaded)}`);
    console.log(
      `  p99 ratio ${fmt(percentile(loaded, 0.99) / percentile(alone, 0.99), 2)} (target < 2); documents: ` +
        Object.entries(ended)
          .map(([k, n]) => `${k} ×${n}`)
          .join(', '),
    );
  } finally {
    await app.close();
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
