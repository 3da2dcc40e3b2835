import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { compileApp } from '../support/compile-app';
import { bootApp, TestApp } from '../support/test-app';

const LIVENESS = '/management/health/liveness';
const POLL_EVERY_MS = 10;
/**
 * Liveness while the process starts. Loading the modules (in steps) holds the event loop for at
 * most about 80 ms at a time here; Nest's dependency injection and its route registration each run
 * as one stretch of 200-250 ms, up to about 550 ms when this shared 2-core machine is loaded by
 * other tests. So: 95% of the answers within 100 ms (measured 21-62 ms), every one within 750 ms
 * (measured 77-391 ms). Before the single socket, answers waited 1.4-2.6 s and the port refused
 * connections for about 300 ms.
 */
const TYPICAL_MS = 100;
const ANSWER_WITHIN_MS = 750;

interface Probe {
  at: number;
  ms: number;
  outcome: number | string;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** One GET on a fresh connection: the status, or the error code (ECONNREFUSED, TIMEOUT). */
const get = (port: number, path: string) =>
  new Promise<{ ms: number; outcome: number | string; body: string }>((resolve) => {
    const started = performance.now();
    const done = (outcome: number | string, body = '') =>
      resolve({ ms: performance.now() - started, outcome, body });
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false, timeout: 5000 }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => done(res.statusCode!, body));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
    req.end();
  });

/**
 * Starts the built entry on a fixed port and probes liveness as an orchestrator does, one request
 * on a fresh connection at a time, 10 ms apart, from before the process runs until `servedPath`
 * answers from the application (not the start-up's 503 STARTING).
 */
async function pollThroughStart(
  out: string,
  entry: 'main' | 'worker',
  env: NodeJS.ProcessEnv,
  servedPath: string,
) {
  const port = await freePort();
  const probes: Probe[] = [];
  const t0 = performance.now();
  let polling = true;
  let servedAt = 0;
  const poller = (async () => {
    while (polling) {
      const at = performance.now() - t0;
      const { ms, outcome } = await get(port, LIVENESS);
      probes.push({ at, ms, outcome });
      await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
    }
  })();
  const child = spawn(process.execPath, [join(out, 'src', `${entry}.js`)], {
    env: { ...env, PORT: String(port), WORKER_PORT: String(port), LOG_FORMAT: 'json', LOG_LEVEL: 'log' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const served = await get(port, servedPath);
      servedAt = performance.now() - t0;
      if (typeof served.outcome === 'number' && !served.body.includes('"STARTING"')) break;
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`${entry} did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    polling = false;
    await poller;
    child.kill('SIGTERM');
    await exited;
  }
  const firstAnswer = probes.findIndex((p) => p.outcome === 200);
  return { probes, firstAnswer, servedAt, output };
}

/** The port answers from the process's first moments to its last: one socket, never closed in between. */
describe('operations: one listening socket through start-up', () => {
  let t: TestApp;
  let out: string;

  beforeAll(async () => {
    const built = compileApp();
    // The in-process app only lends its deployment (master database, Redis); the spawned ones join it.
    t = await bootApp({ env: { QUEUE_PROCESSORS_ENABLED: 'false' } });
    out = await built;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const expectNoGap = ({
    probes,
    firstAnswer,
    servedAt,
    output,
  }: Awaited<ReturnType<typeof pollThroughStart>>) => {
    expect(firstAnswer).toBeGreaterThanOrEqual(0);
    const afterFirst = probes.slice(firstAnswer);
    const times = afterFirst.map((p) => p.ms).sort((a, b) => a - b);
    const summary = {
      probes: afterFirst.length,
      p95: Math.round(times[Math.floor(times.length * 0.95)]),
      refused: afterFirst.filter((p) => p.outcome !== 200),
      slowest: Math.round(Math.max(...afterFirst.map((p) => p.ms))),
      slow: afterFirst
        .filter((p) => p.ms > ANSWER_WITHIN_MS)
        .map((p) => `${Math.round(p.at)}:${Math.round(p.ms)}`),
    };
    const opened = Math.round(probes[firstAnswer].at);
    const figures = { ...summary, refused: summary.refused.length, opened, served: Math.round(servedAt) };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    // The port answers while the modules load, not only once the application is up.
    expect(servedAt - probes[firstAnswer].at).toBeGreaterThan(1000);
    expect({ refused: summary.refused, slow: summary.slow }).toEqual({ refused: [], slow: [] });
    expect(summary.p95).toBeLessThan(TYPICAL_MS);
    expect(output).not.toMatch(/Start failed/);
  };

  it('the API: liveness answers in time from its first answer until a real route is served, never refused', async () => {
    const env = { ...t.env, QUEUE_PROCESSORS_ENABLED: 'false' };
    const run = await pollThroughStart(out, 'main', env, '/auth/sso/saml/metadata');
    expectNoGap(run);
    expect(run.output).toMatch(/Listening on port/);
  }, 120_000);

  it('the worker: the same on its probes port', async () => {
    const run = await pollThroughStart(out, 'worker', { ...t.env }, '/management/health/readiness');
    expectNoGap(run);
    expect(run.output).toMatch(/probes on port/);
  }, 120_000);
});
