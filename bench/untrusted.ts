/**
 * Untrusted input bench: how much one client's worst-case uploads slow another client down when the
 * API runs the OCR processors itself (as `npm start` does). For BENCH_UNTRUSTED_SECONDS, client beta
 * OCRs PNG scans one after another (upload to COMPLETED) while reading `GET /api/units` with
 * BENCH_UNTRUSTED_READERS requests in flight, first alone, then while client acme uploads, round
 * after round, a mix of bombs and ordinary documents (PDF, DOCX), each round waited for to the
 * end. The ordinary ones have text layers (no OCR): beta's scans compete with the bombs only. The
 * bombs: PDFs whose content decodes to 300 MiB through Flate, LZW, RunLength (128 MiB)
 * and ASCII85 over Flate, a PDF page drawing a 30000×30000 inline image, DOCX files inflating to 400
 * MiB (one declaring it, one declaring 4 KiB), a 30000×30000 PNG. Prints beta's p50 / p99 of both
 * for both phases and the p99 ratios (target: under 2), how the documents ended and the longest
 * processing of each, and the sandbox processes' resident memory afterwards (target: each under
 * OCR_SANDBOX_MEMORY_MB).
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/untrusted.js
 */
import {
  docxBomb,
  pdfBomb,
  pdfChainBomb,
  pdfInlineImage,
  pdfLzwBomb,
  pdfRunLengthBomb,
  pngBomb,
} from '../test/documents/bombs';
import { renderTextPng, textDocx, textPdf } from '../test/documents/fixtures';
import { as, bootOcrApp, documentOf, enableOcr, upload } from '../test/documents/helpers';
import { sandboxMemoryMb } from '../test/documents/sandbox-memory';
import { provisionClient, TestApp } from '../test/support/test-app';
import { BENCH_SECRETS, fmt, withBenchRun } from './bench-env';

const SECONDS = Number(process.env.BENCH_UNTRUSTED_SECONDS ?? 30);
const READERS = Number(process.env.BENCH_UNTRUSTED_READERS ?? 4);
const SANDBOX_MB = 512;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

type Client = { headers: Record<string, string>; companyId: number };

/** Latencies of `GET /api/units` with READERS requests in flight until `until` resolves. */
async function readUnits(t: TestApp, client: Client, until: Promise<unknown>) {
  const latencies: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  await Promise.all(
    Array.from({ length: READERS }, async () => {
      while (!done) {
        const started = performance.now();
        await t.http().get('/api/units').set(client.headers).expect(200);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

let scans = 0;

/** Upload-to-COMPLETED times of PNG scans OCR'd one after another until `until` resolves. */
async function ocrScans(t: TestApp, client: Client, until: Promise<unknown>) {
  const latencies: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    const started = performance.now();
    const png = renderTextPng([`TURBINE INSPECTION ${++scans}`, 'GENERATOR BEARING REPORT']);
    const up = await upload(t, client.headers, client.companyId, [[`scan-${scans}.png`, png]]).expect(201);
    const doc = await documentOf(t, client.headers, up.body[0].id, undefined, 300_000);
    if (doc.status !== 'COMPLETED') throw new Error(`beta's scan ended ${doc.status}: ${doc.errorMessage}`);
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

async function mix(): Promise<[string, Buffer][]> {
  return [
    ['flate.pdf', pdfBomb(300)],
    ['lzw.pdf', pdfLzwBomb(300)],
    ['runlength.pdf', pdfRunLengthBomb(128)],
    ['ascii85-flate.pdf', pdfChainBomb(300)],
    ['inline-image.pdf', pdfInlineImage(30000, 30000)],
    ['bomb.docx', docxBomb(400)],
    ['lying.docx', docxBomb(400, 4096)],
    ['bomb.png', pngBomb(30000, 30000)],
    ['report.pdf', textPdf(['Quarterly emissions report', 'Boiler seven'])],
    ['letter.docx', await textDocx(['Permit renewal letter', 'Stack height'])],
  ];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Beta's unit reads and scans together until `until` resolves. */
const measure = async (t: TestApp, beta: Client, until: Promise<unknown>) => {
  const [units, ocr] = await Promise.all([readUnits(t, beta, until), ocrScans(t, beta, until)]);
  return { units, ocr };
};

export async function main() {
  const app = await bootOcrApp({ ...BENCH_SECRETS, LOG_LEVEL: 'error' });
  const t = app.t;
  try {
    const client = async (name: string): Promise<Client> => {
      const headers = as((await provisionClient(t, app.sink, name)).adminToken, name);
      return { headers, companyId: await enableOcr(t, headers) };
    };
    const acme = await client('acme');
    const beta = await client('beta');
    const files = await mix();
    const ended: Record<string, number> = {};
    const slowest: Record<string, number> = {};

    // The first scan starts the OCR engine, the first documents the parse sandbox (pdfjs and MuPDF
    // loaded, a page rendered): not part of either phase.
    await ocrScans(t, beta, sleep(0));
    const warm: [string, Buffer][] = [
      ['warm.pdf', textPdf(['Warm up'])],
      ['warm-page.pdf', pdfInlineImage(100, 100)],
    ];
    const warmed = await upload(t, acme.headers, acme.companyId, warm).expect(201);
    for (const file of warmed.body as { id: number }[]) await documentOf(t, acme.headers, file.id);
    const alone = await measure(t, beta, sleep(SECONDS * 1000));
    const uploads = (async () => {
      const stop = Date.now() + SECONDS * 1000;
      while (Date.now() < stop) {
        const up = await upload(t, acme.headers, acme.companyId, files).expect(201);
        for (const [i, file] of (up.body as { id: number }[]).entries()) {
          const doc = await documentOf(t, acme.headers, file.id, undefined, 300_000);
          const key = `${files[i][0]} ${doc.status}`;
          ended[key] = (ended[key] ?? 0) + 1;
          const took = Number(doc.processingDurationMs ?? 0);
          slowest[files[i][0]] = Math.max(slowest[files[i][0]] ?? 0, took);
        }
      }
    })();
    const loaded = await measure(t, beta, uploads);
    await sleep(1000);
    const sandbox = sandboxMemoryMb();

    const line = (name: string, l: number[], unit: string) =>
      `${name}: ${l.length} ${unit}, p50 ${fmt(percentile(l, 0.5))} ms, p99 ${fmt(percentile(l, 0.99))} ms`;
    const ratio = (a: number[], b: number[]) => fmt(percentile(b, 0.99) / percentile(a, 0.99), 2);
    console.log(
      `\nUntrusted input (${SECONDS} s each; beta: PNG scans one after another, ${READERS} readers of GET /api/units)`,
    );
    console.log(`  scans alone: ${line('', alone.ocr, 'scans').slice(2)}`);
    console.log(`  scans with bombs: ${line('', loaded.ocr, 'scans').slice(2)}`);
    console.log(`  units alone: ${line('', alone.units, 'requests').slice(2)}`);
    console.log(`  units with bombs: ${line('', loaded.units, 'requests').slice(2)}`);
    console.log(
      `  p99 ratio: scans ${ratio(alone.ocr, loaded.ocr)}, units ${ratio(alone.units, loaded.units)} (target < 2)`,
    );
    console.log(
      `  sandbox afterwards: ${sandbox.map((p) => `${p.resident} MiB (peak ${p.peak})`).join(', ')} ` +
        `(budget ${SANDBOX_MB} MiB each)`,
    );
    console.log(
      '  slowest processing of each: ' +
        Object.entries(slowest)
          .map(([k, ms]) => `${k} ${ms} ms`)
          .join(', '),
    );
    console.log(
      '  documents: ' +
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
