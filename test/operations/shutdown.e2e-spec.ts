import autocannon from 'autocannon';
import { bootApp, superAdminToken, TestApp } from '../support/test-app';
import { Receiver, until } from '../webhooks/receiver';
import { hammer } from './load';
import { compile, jsonLines, Spawned, start, stopAll } from './processes';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two API processes and one worker, built and spawned as in production, on one PostgreSQL and one
 * Redis: what SIGTERM and kill -9 do to requests and jobs in flight.
 */
describe('operations: shutdown of APIs and workers', () => {
  let t: TestApp;
  let receiver: Receiver;
  let token: string;
  let env: NodeJS.ProcessEnv;
  const processes: Spawned[] = [];
  let apiA: Spawned;
  let apiB: Spawned;

  const api = (method: 'get' | 'post', path: string) =>
    t.http()[method](path).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    receiver = await new Receiver().start();
    const built = compile();
    // This in-process instance only creates the deployment (master database, SUPER_ADMIN) and reads.
    t = await bootApp({ env: { QUEUE_PROCESSORS_ENABLED: 'false', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    token = await superAdminToken(t);
    env = {
      ...t.env,
      QUEUE_PROCESSORS_ENABLED: 'false',
      WEBHOOK_JOB_LOCK_MS: '1500',
      WEBHOOK_SWEEP_INTERVAL_MS: '500',
      EVENT_RELAY_POLL_MS: '200',
      SHUTDOWN_GRACE_SECONDS: '20',
    };
    await built;
    [apiA, apiB] = await Promise.all([start('main', env), start('main', env)]);
    processes.push(apiA, apiB);
  }, 240_000);

  afterAll(async () => {
    await stopAll(processes);
    await t?.close();
    await receiver?.stop();
  });

  it('logs a request as one JSON line with request id, client, sandbox, user and route, and no secret', async () => {
    const res = await fetch(`http://127.0.0.1:${apiA.port}/api/units?sandbox=public&token=query-secret-1`, {
      headers: {
        Authorization: `Bearer ${token}`,
        'X-Request-ID': 'ops-log-line-1',
        Cookie: 'sid=cookie-secret-1',
      },
    });
    expect(res.status).toBe(400); // unknown query parameter; the line is written all the same
    expect(res.headers.get('x-request-id')).toBe('ops-log-line-1');
    await sleep(200);
    const line = jsonLines(apiA.output()).find(
      (l) => l.requestId === 'ops-log-line-1' && 'responseTime' in l,
    );
    expect(line).toMatchObject({
      level: 'info',
      requestId: 'ops-log-line-1',
      client: 'master',
      sandbox: 'public',
      userId: expect.any(Number),
      route: '/api/units',
      req: { method: 'GET', path: '/api/units' },
      res: { statusCode: 400 },
    });
    const output = apiA.output();
    for (const secret of ['query-secret-1', 'cookie-secret-1', token, token.split('.')[2]]) {
      expect(output).not.toContain(secret);
    }
    expect(line).not.toHaveProperty('traceId'); // tracing is off without OTEL_EXPORTER_OTLP_ENDPOINT
    // Nest's module and route-mapping lines are at debug level, below LOG_LEVEL=log.
    expect(output).not.toContain('Mapped {');
  });

  it('exports traces over OTLP when an endpoint is set, and logs their trace id', async () => {
    const traced = await start('main', { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url('') });
    processes.push(traced);
    const res = await fetch(`http://127.0.0.1:${traced.port}/api/units`, {
      headers: { Authorization: `Bearer ${token}`, 'X-Request-ID': 'ops-traced-1' },
    });
    expect(res.status).toBe(200);
    const [exported] = await receiver.waitFor('/v1/traces', 1, 20_000);
    expect(exported.method).toBe('POST');
    expect(JSON.stringify(exported.body)).toContain('/api/units');
    const line = jsonLines(traced.output()).find(
      (l) => l.requestId === 'ops-traced-1' && 'responseTime' in l,
    );
    expect(line?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(exported.body)).toContain(line!.traceId as string);

    // A job run by a traced worker is a span of its own, with the job's HTTP call inside it.
    const hook = await api('post', '/api/admin/webhooks').send({
      name: 'Traced',
      url: receiver.url('/traced-hook'),
      events: ['unit.created'],
    });
    expect(hook.status).toBe(201);
    const worker = await start('worker', { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url('') });
    processes.push(worker);
    await api('post', '/api/units').send({ name: 'Traced delivery' }).expect(201);
    await receiver.waitFor('/traced-hook', 1, 20_000);
    const jobSpan = await until(
      async () => receiver.at('/v1/traces').map((r) => r.raw),
      (bodies) => bodies.some((raw) => raw.includes('bull.process webhook-deliveries')),
      20_000,
    );
    expect(jobSpan.length).toBeGreaterThan(0);
    traced.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    expect((await traced.exited).code).toBe(0);
    expect((await worker.exited).code).toBe(0);
  }, 90_000);

  it('answers every request accepted before SIGTERM while the other API serves on', async () => {
    const path = '/api/units?pageSize=5';
    let signalledAt = 0;
    const other = autocannon({
      url: `http://127.0.0.1:${apiB.port}${path}`,
      headers: { Authorization: `Bearer ${token}` },
      connections: 8,
      duration: 4,
    });
    const load = hammer(apiA.port, path, token, 16, () => false);
    await sleep(1500);
    signalledAt = Date.now();
    apiA.child.kill('SIGTERM');
    const [outcomes, surviving, exit] = await Promise.all([load, other, apiA.exited]);

    const before = outcomes.filter((o) => o.startedAt < signalledAt);
    const inFlight = before.filter((o) => o.endedAt >= signalledAt);
    expect(before.length).toBeGreaterThanOrEqual(16); // each client had answers before the signal
    expect(inFlight.length).toBeGreaterThan(0);
    expect(before.filter((o) => o.status !== 200)).toEqual([]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(apiA.output()).toContain('"msg":"Stopped"');
    expect(surviving.errors).toBe(0);
    expect(surviving.non2xx).toBe(0);
    expect(surviving.requests.total).toBeGreaterThan(0);
  }, 60_000);

  it('a worker told to stop finishes its running delivery and exits; what was queued meanwhile is delivered once', async () => {
    const worker = await start('worker', env);
    processes.push(worker);
    receiver.on('/slow-term', (_req, res) => void setTimeout(() => res.writeHead(200).end(), 2000));
    const hook = await api('post', '/api/admin/webhooks').send({
      name: 'Slow for SIGTERM',
      url: receiver.url('/slow-term'),
      events: ['unit.created'],
      timeoutMs: 30000,
    });
    expect(hook.status).toBe(201);
    const deliveries = async () =>
      (await api('get', `/api/admin/webhooks/${hook.body.data.id}/deliveries`)).body.data as {
        status: string;
        attemptCount: number;
      }[];
    await api('post', '/api/units').send({ name: 'Running at SIGTERM' }).expect(201);
    await receiver.waitFor('/slow-term', 1);

    worker.child.kill('SIGTERM');
    await api('post', '/api/units').send({ name: 'Queued during shutdown' }).expect(201);
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    // The running delivery was finished before the exit, once.
    const afterExit = await deliveries();
    expect(afterExit.filter((d) => d.status === 'SUCCESS').length).toBeGreaterThanOrEqual(1);
    expect(worker.output()).toContain('Taking no more jobs from');

    // Whatever was queued meanwhile is delivered by the next worker (or was, by the draining one), once.
    const next = await start('worker', env);
    processes.push(next);
    const done = await until(
      deliveries,
      (all) => all.length === 2 && all.every((d) => d.status === 'SUCCESS'),
      30_000,
    );
    expect(done.map((d) => d.attemptCount)).toEqual([1, 1]);
    await sleep(500);
    const received = receiver.at('/slow-term');
    expect(received).toHaveLength(2);
    expect(new Set(received.map((r) => r.body.eventId)).size).toBe(2);
    next.child.kill('SIGTERM');
    expect(await next.exited).toEqual({ code: 0, signal: null });
  }, 90_000);

  it('a delivery of a worker killed with -9 is taken over once, and answered once', async () => {
    const worker = await start('worker', env);
    processes.push(worker);
    let answered = 0;
    let held = 0;
    receiver.on('/slow-kill', (_req, res) => {
      if (held++ === 0) return; // the killed worker's request is never answered
      answered++;
      res.writeHead(200).end();
    });
    const hook = await api('post', '/api/admin/webhooks').send({
      name: 'Slow for kill -9',
      url: receiver.url('/slow-kill'),
      events: ['unit.created'],
      timeoutMs: 30000,
    });
    await api('post', '/api/units').send({ name: 'Running at kill -9' }).expect(201);
    await receiver.waitFor('/slow-kill', 1);
    worker.child.kill('SIGKILL');
    await worker.exited;

    processes.push(await start('worker', env));
    const done = await until(
      async () => (await api('get', `/api/admin/webhooks/${hook.body.data.id}/deliveries`)).body.data,
      (all: { status: string; attemptCount: number }[]) => all.length === 1 && all[0].status === 'SUCCESS',
      30_000,
    );
    expect(done[0].attemptCount).toBe(2);
    await sleep(1000); // nothing else arrives
    expect(answered).toBe(1);
    const received = receiver.at('/slow-kill');
    expect(received).toHaveLength(2);
    expect(received[1].body.eventId).toBe(received[0].body.eventId);
  }, 90_000);
});
