/**
 * OCR fairness bench: client A queues BENCH_FAIR_DOCS documents (2,000), then client B queues one.
 * Prints B's wait for its document beside the FIFO figure (how long it would wait behind A's queue:
 * A's documents not yet done when B arrived, at A's measured throughput, plus one document alone)
 * and the bound (2 × one document's time alone + A's jobs in flight, at most
 * OCR_CLIENT_MAX_IN_FLIGHT, shared by the workers). The HTTP OCR engine talks to a fake service that
 * answers after BENCH_FAIR_DOC_MS (20 ms), so the figures are the queue's, not an engine's.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/ocr-fairness.js
 */
import { Client } from 'pg';
import { OcrQueue } from '../src/documents/ocr-queue';
import { runAsTenant } from '../src/tenancy/tenant-jobs';
import { FakeOcrService } from '../test/documents/fake-ocr-service';
import { renderTextPng } from '../test/documents/fixtures';
import { as, upload } from '../test/documents/helpers';
import { clientDatabase } from '../test/support/pg';
import { SmtpSink } from '../test/support/smtp-sink';
import { databaseUrl } from '../test/support/test-env';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../test/support/test-app';
import { fmt, withBenchRun } from './bench-env';

const DOCS = Number(process.env.BENCH_FAIR_DOCS ?? 2000);
const DOC_MS = Number(process.env.BENCH_FAIR_DOC_MS ?? 20);
const WORKERS = Number(process.env.BENCH_FAIR_WORKERS ?? 4);
const CAP = Number(process.env.BENCH_FAIR_CAP ?? 4);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One client of the bench: its database, its company's file to copy, and its documents queued. */
class BenchClient {
  private constructor(
    private readonly t: TestApp,
    private readonly client: ProvisionedClient,
    private readonly pg: Client,
    private readonly fileId: number,
  ) {}

  static async open(t: TestApp, sink: SmtpSink, identifier: string): Promise<BenchClient> {
    const client = await provisionClient(t, sink, identifier);
    const headers = as(client.adminToken, identifier);
    const list = await t.http().get('/api/admin/companies').set(headers).expect(200);
    const companyId = Math.min(...list.body.data.map((c: { id: number }) => c.id));
    await t
      .http()
      .put(`/api/companies/${companyId}/ocr-config`)
      .set(headers)
      .send({ ocrEnabled: true })
      .expect(200);
    const up = await upload(t, headers, companyId, [['page.png', renderTextPng(['BENCH'])]]).expect(201);
    const pg = new Client({ connectionString: databaseUrl(clientDatabase(t.masterDatabase, identifier)) });
    await pg.connect();
    return new BenchClient(t, client, pg, up.body[0].id as number);
  }

  /** `count` new PENDING documents (each with its copy of the uploaded file row), queued at once. */
  async queue(count: number): Promise<number[]> {
    const { rows } = await this.pg.query<{ id: number }>(
      `WITH files AS (
         INSERT INTO uploaded_files (company_id, name, hash, ext, mime, size, provider, folder_path, storage_key)
         SELECT company_id, name, hash, ext, mime, size, provider, folder_path, storage_key
           FROM uploaded_files f, generate_series(1, $2::int) WHERE f.id = $1 RETURNING id, company_id)
       INSERT INTO document_contents (company_id, file_id, status, ocr_language)
       SELECT company_id, id, 'pending', 'en' FROM files RETURNING id`,
      [this.fileId, count],
    );
    const ids = rows.map((r) => r.id);
    const tenant = {
      client: { identifier: this.client.identifier, id: this.client.id, isMaster: false },
      schema: 'public',
      requestId: 'bench:ocr-fairness',
    };
    await runAsTenant(tenant, () => this.t.app.get(OcrQueue, { strict: false }).enqueue(ids));
    return ids;
  }

  async done(ids: number[]): Promise<number> {
    const { rows } = await this.pg.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM document_contents WHERE id = ANY($1::int[]) AND status IN ('completed', 'failed')`,
      [ids],
    );
    return rows[0].n;
  }

  /** Milliseconds from queueing one document to its end. */
  async timeOne(): Promise<number> {
    const started = performance.now();
    const ids = await this.queue(1);
    while ((await this.done(ids)) < 1) await sleep(2);
    return performance.now() - started;
  }

  close() {
    return this.pg.end();
  }
}

export async function main(): Promise<void> {
  await withBenchRun(async () => {
    const sink = await new SmtpSink().start();
    const ocr = await new FakeOcrService().start();
    ocr.delayMs = DOC_MS;
    const t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        OCR_ENABLED: 'true',
        OCR_ENGINE: 'http',
        OCR_SERVICE_URL: ocr.url,
        OCR_WORKERS: String(WORKERS),
        OCR_CLIENT_MAX_IN_FLIGHT: String(CAP),
      },
    });
    const clients: BenchClient[] = [];
    try {
      const a = await BenchClient.open(t, sink, 'bench-a');
      const b = await BenchClient.open(t, sink, 'bench-b');
      clients.push(a, b);
      const alone: number[] = [];
      for (let i = 0; i < 7; i++) alone.push(await b.timeOne());
      alone.sort((x, y) => x - y);
      const oneMs = alone[3];

      const started = performance.now();
      const queued = await a.queue(DOCS);
      while ((await a.done(queued)) < Math.min(100, DOCS / 4)) await sleep(20);
      const doneBefore = await a.done(queued);
      const throughput = doneBefore / (performance.now() - started); // A's documents per ms
      const bWaited = await b.timeOne();
      const ahead = DOCS - doneBefore;
      const fifoMs = ahead / throughput + oneMs;
      const boundMs = 2 * oneMs + Math.ceil(CAP / WORKERS) * oneMs;
      console.log(
        `ocr fairness: ${DOCS} documents of client A queued, ${WORKERS} workers, cap ${CAP} per client, ` +
          `service ${DOC_MS} ms a document (${fmt(oneMs)} ms through the queue alone)`,
      );
      console.log(
        `ocr fairness: client B's document ${fmt(bWaited)} ms; FIFO behind A's ${ahead} left ` +
          `${fmt(fifoMs)} ms; bound ${fmt(boundMs)} ms`,
      );
      console.log(
        `ocr fairness ratios: B / FIFO ${fmt(bWaited / fifoMs, 3)}, B / bound ${fmt(bWaited / boundMs, 2)} (target <= 1)`,
      );
    } finally {
      for (const c of clients) await c.close();
      await t.close();
      await ocr.stop();
      await sink.stop();
    }
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
