import { ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import { bootApp, superAdminToken, TestApp } from '../support/test-app';
import { REDIS_URL } from '../support/test-env';
import { Receiver, until } from './receiver';
import { compileApp, runBuildFolder, startCompiledWorker } from '../support/compile-app';

const OUT = runBuildFolder();

const compile = () => compileApp();

const workerPorts = new WeakMap<ChildProcess, number>();

/** Starts `node dist/.../worker.js` and resolves once it is running. */
async function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const worker = await startCompiledWorker(OUT, env);
  workerPorts.set(worker.child, worker.port);
  return worker.child;
}

describe('a delivery survives a killed worker', () => {
  let t: TestApp;
  let receiver: Receiver;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    receiver = await new Receiver().start();
    await compile();
    t = await bootApp({
      env: {
        QUEUE_PROCESSORS_ENABLED: 'false',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_JOB_LOCK_MS: '1500',
        WEBHOOK_SWEEP_INTERVAL_MS: '500',
        EVENT_RELAY_POLL_MS: '200',
      },
    });
  }, 180_000);
  afterAll(async () => {
    // Wait for the exits too: a child's pipes stay open handles of this worker until it is gone.
    const live = workers.filter((w) => w.exitCode === null && w.signalCode === null);
    const exits = live.map((w) => new Promise((resolve) => w.once('exit', resolve)));
    for (const w of live) w.kill('SIGKILL');
    await Promise.all(exits);
    await t?.close();
    await receiver?.stop();
  });

  it('completes after kill -9 during the request, with the same eventId', async () => {
    workers.push(await startWorker(t.env));
    let held = 0;
    receiver.on('/slow', (_req, res) => {
      if (held++ === 0) return; // the first request is never answered
      res.writeHead(200).end();
    });
    const token = await superAdminToken(t);
    const api = (method: 'get' | 'post', path: string) =>
      t.http()[method](path).set('Authorization', `Bearer ${token}`);
    const hook = await api('post', '/api/admin/webhooks').send({
      name: 'Slow',
      url: receiver.url('/slow'),
      events: ['unit.created'],
      timeoutMs: 30000,
    });
    expect(hook.status).toBe(201);
    await api('post', '/api/units').send({ name: 'Killed mid-delivery' }).expect(201);

    await receiver.waitFor('/slow', 1);
    const first = workers[0];
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    const pending = (await api('get', `/api/admin/webhooks/${hook.body.data.id}/deliveries`)).body.data[0];
    expect(pending.status).toBe('PENDING');

    workers.push(await startWorker(t.env));
    const done = await until(
      async () => (await api('get', `/api/admin/webhooks/${hook.body.data.id}/deliveries`)).body.data[0],
      (d) => d?.status === 'SUCCESS',
      30000,
    );
    expect(done.attemptCount).toBe(2);
    const requests = receiver.at('/slow');
    expect(requests).toHaveLength(2);
    expect(requests[1].body.eventId).toBe(requests[0].body.eventId);
    expect(requests[1].headers['x-svc-delivery']).toBe(requests[0].headers['x-svc-delivery']);
  });

  it('delivers what was queued in a Redis that then lost its data', async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    const token = await superAdminToken(t);
    const api = (method: 'get' | 'post', path: string) =>
      t.http()[method](path).set('Authorization', `Bearer ${token}`);
    const hook = await api('post', '/api/admin/webhooks').send({
      name: 'After flush',
      url: receiver.url('/flushed'),
      events: ['unit.updated'],
    });
    const unit = await api('post', '/api/units').send({ name: 'Flushed' });
    await t
      .http()
      .put(`/api/units/${unit.body.data.id}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ location: 'X' })
      .expect(200);
    const queued = await until(
      async () => (await api('get', `/api/admin/webhooks/${hook.body.data.id}/deliveries`)).body.data[0],
      (d) => d?.status === 'PENDING',
    );
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${t.env.REDIS_PREFIX}:bull:webhook-deliveries:*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);
    await redis.quit();

    workers.push(await startWorker(t.env));
    const done = await until(
      async () => (await api('get', `/api/admin/webhooks/deliveries/${queued.id}`)).body.data,
      (d) => d?.status === 'SUCCESS',
      20000,
    );
    expect(done.attemptCount).toBe(1);
    expect(receiver.at('/flushed')).toHaveLength(1);
  });

  it('answers its health and metrics probes and nothing else on its port', async () => {
    const worker = await startWorker(t.env);
    workers.push(worker);
    const base = `http://127.0.0.1:${workerPorts.get(worker)}`;
    expect((await fetch(`${base}/management/health/liveness`)).status).toBe(200);
    expect((await fetch(`${base}/management/health/readiness`)).status).toBe(200);
    expect(await (await fetch(`${base}/metrics`)).text()).toContain('http_request_duration_seconds');
    const login = await fetch(`${base}/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'admin@platform.test', password: 'whatever' }),
    });
    expect(login.status).toBe(404);
    expect(((await login.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    for (const path of ['/api/units', '/api/docs-json', '/api/platform/clients', '/management/healthz']) {
      expect((await fetch(`${base}${path}`)).status).toBe(404);
    }
  });
});
