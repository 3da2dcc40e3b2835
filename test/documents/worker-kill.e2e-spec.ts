import { ChildProcess } from 'node:child_process';
import { bootApp, superAdminToken, TestApp } from '../support/test-app';
import { until } from '../webhooks/receiver';
import { FakeOcrService } from './fake-ocr-service';
import { renderTextPng } from './fixtures';
import { documentOf, upload } from './helpers';
import { compileApp, runBuildFolder, startCompiledWorker } from '../support/compile-app';

const OUT = runBuildFolder();

const compile = () => compileApp();

const startWorker = async (env: NodeJS.ProcessEnv) => (await startCompiledWorker(OUT, env)).child;

/** A worker killed with SIGKILL in the middle of an OCR job loses no document. */
describe('an OCR job survives a killed worker', () => {
  let t: TestApp;
  let ocr: FakeOcrService;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    ocr = await new FakeOcrService().start();
    await compile();
    t = await bootApp({
      env: {
        QUEUE_PROCESSORS_ENABLED: 'false',
        OCR_ENABLED: 'true',
        OCR_ENGINE: 'http',
        OCR_SERVICE_URL: ocr.url,
        OCR_TIMEOUT_SECONDS: '60',
        OCR_JOB_LOCK_MS: '1500',
        EVENT_RELAY_POLL_MS: '200',
      },
    });
  }, 180_000);
  afterAll(async () => {
    const live = workers.filter((w) => w.exitCode === null && w.signalCode === null);
    const exits = live.map((w) => new Promise((resolve) => w.once('exit', resolve)));
    for (const w of live) w.kill('SIGKILL');
    await Promise.all(exits);
    await t?.close();
    await ocr?.stop();
  });

  it('processes the document after a restart', async () => {
    const token = await superAdminToken(t);
    const headers = { Authorization: `Bearer ${token}` };
    const companies = await t.http().get('/api/admin/companies').set(headers).expect(200);
    const companyId = Math.min(...companies.body.data.map((c: { id: number }) => c.id));
    await t.http().post(`/api/companies/${companyId}/ocr-config/enable`).set(headers).expect(200);

    workers.push(await startWorker(t.env));
    ocr.hold = 1; // the first request is never answered
    const up = await upload(t, headers, companyId, [['killed.png', renderTextPng(['KILLED'])]]).expect(201);
    await until(
      async () => ocr.requests.length,
      (n) => n === 1,
      20000,
    );
    const processing = await documentOf(t, headers, up.body[0].id, ['PROCESSING'], 5000);
    expect(processing.inProgress).toBe(true);
    const first = workers[0];
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;

    workers.push(await startWorker(t.env));
    const done = await documentOf(t, headers, up.body[0].id, ['COMPLETED'], 30000);
    expect(done.extractedText).toBe(ocr.text);
    expect(ocr.requests).toHaveLength(2);
  });
});
