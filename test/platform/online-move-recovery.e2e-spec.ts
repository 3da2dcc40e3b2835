import { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { platform, sleep, until } from '../backups/helpers';
import { OwnPostgres } from '../operations/own-services';
import { compileApp, runBuildFolder, startCompiledWorker } from '../support/compile-app';
import { sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, superAdminToken, TestApp } from '../support/test-app';

const OUT = runBuildFolder();

async function kill(worker: ChildProcess) {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGKILL');
  await exited;
}

/**
 * An online move whose worker is killed (SIGKILL) while it copies and while it switches, and one
 * whose switch outlasts CLIENT_MOVE_PAUSE_MAX_MS: another worker takes the stopped move over once
 * its lease runs out and undoes it, the client writes on its source again with nothing lost, and
 * nothing the move made is left on either server. The client then moves for real.
 */
describe('online moves that stop: taken over and undone, nothing lost', () => {
  const one = new OwnPostgres({ wal_level: 'logical' });
  const two = new OwnPostgres({ wal_level: 'logical' });
  const sink = new SmtpSink();
  const workers: ChildProcess[] = [];
  let t: TestApp;
  let api: ReturnType<typeof platform>;
  let oneId: number;
  let twoId: number;
  let kappa: ProvisionedClient;
  const headers = () => ({ 'X-Client-ID': 'kappa', Authorization: `Bearer ${kappa.adminToken}` });
  const written: string[] = [];
  const write = async (name: string) => {
    const res = await t.http().post('/api/units').set(headers()).send({ name });
    expect(res.status).toBe(201);
    written.push(name);
  };
  const clientRow = async () =>
    (
      await sql<{ serverId: number; database: string; moving: number | null }>(
        t.masterDatabase,
        `SELECT server_id AS "serverId", database_name AS database, moving_to_server_id AS moving
           FROM clients WHERE id = $1`,
        [kappa.id],
      )
    )[0];
  const startWorker = async (env: Record<string, string> = {}) => {
    const worker = (await startCompiledWorker(OUT, { ...t.env, ...env })).child;
    workers.push(worker);
    return worker;
  };
  /** A session of the source running a slow INSERT into a temporary table (ended by `end()`). */
  async function slowWriter(database: string) {
    const pg = new Client({ connectionString: one.url(database) });
    pg.on('error', () => undefined);
    await pg.connect();
    await pg.query('CREATE TEMP TABLE slow (a int)');
    void pg.query('INSERT INTO slow SELECT 1 FROM pg_sleep(600)').catch(() => undefined);
    return {
      end: async () => {
        await one.query(
          'postgres',
          `SELECT pg_cancel_backend(${(pg as unknown as { processID: number }).processID})`,
        );
        await pg.end().catch(() => undefined);
      },
    };
  }

  /** After an undone move: on its source, writing, every unit there, nothing of the move left. */
  async function expectUndone() {
    const row = await clientRow();
    expect(row).toMatchObject({ serverId: oneId, moving: null });
    await write(`after-undo-${written.length}`);
    const stored = new Set(
      (await one.query<{ name: string }>(row.database, 'SELECT name FROM public.units')).map((r) => r.name),
    );
    expect(written.filter((name) => !stored.has(name))).toEqual([]);
    expect(
      await one.query(row.database, "SELECT tgname FROM pg_trigger WHERE tgname = '_client_move_guard'"),
    ).toEqual([]);
    expect(await one.query(row.database, 'SELECT pubname FROM pg_publication')).toEqual([]);
    expect(await one.query('postgres', 'SELECT slot_name FROM pg_replication_slots')).toEqual([]);
    expect(await two.query('postgres', "SELECT datname FROM pg_database WHERE datname LIKE '\\_%'")).toEqual(
      [],
    );
  }

  beforeAll(async () => {
    await Promise.all([one.create(), two.create(), sink.start(), compileApp()]);
    // Leases run out after 3 s, so a stopped move is taken over within seconds.
    t = await bootApp({
      env: { QUEUE_PROCESSORS_ENABLED: 'false', SMTP_URL: sink.url, CLIENT_LEASE_TTL_MS: '3000' },
    });
    api = platform(t, await superAdminToken(t));
    for (const [name, pg] of [
      ['one', one],
      ['two', two],
    ] as const) {
      const created = await api
        .post('/database-servers')
        .send({ name, host: '127.0.0.1', port: pg.port, adminUsername: 'postgres', maxClients: 10 });
      expect(created.status).toBe(201);
      if (name === 'one') oneId = created.body.data.id;
      else twoId = created.body.data.id;
    }
    await startWorker();
    kappa = await provisionClient(t, sink, 'kappa', { serverId: oneId });
    await write('before');
  }, 240_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => kill(w)));
    await t?.close();
    await Promise.all([one.destroy(), two.destroy(), sink.stop()]);
  });

  it('a worker killed while the data is copied: the move is taken over and undone', async () => {
    const started = await api.post(`/clients/${kappa.id}/move`).send({ serverId: twoId });
    expect(started.status).toBe(202);
    const jobId = started.body.data.jobId as string;
    const deadline = Date.now() + 60_000;
    while (!(await two.query('postgres', 'SELECT 1 FROM pg_subscription')).length) {
      if (Date.now() > deadline) throw new Error('the move never subscribed');
      await sleep(10);
    }
    await kill(workers[0]);
    await write('while-stranded');
    await startWorker();
    const job = await until(
      () => api.get(`/moves/${jobId}`),
      (body) => body.data.status !== 'running' && body.data.status !== 'queued',
      90_000,
    );
    expect(job).toMatchObject({ status: 'failed', mode: 'online' });
    expect(job.error).toMatch(/stopped at step (copying|catching-up)/);
    await expectUndone();
  }, 150_000);

  it('a worker killed while it switches: writes resume on the source once the move is undone', async () => {
    const row = await clientRow();
    // A data-changing statement that began before the switch keeps it waiting (it could commit a
    // write the guard did not see); on a temporary table it holds up nothing else of the move.
    const blocker = await slowWriter(row.database);
    const live = workers.find((w) => w.exitCode === null && w.signalCode === null)!;
    await kill(live);
    await startWorker({ CLIENT_MOVE_PAUSE_MAX_MS: '600000' });
    const started = await api.post(`/clients/${kappa.id}/move`).send({ serverId: twoId });
    const jobId = started.body.data.jobId as string;
    await until(
      () => api.get(`/moves/${jobId}`),
      (body) => body.data.step === 'switching',
      60_000,
    );
    const refused = await t.http().post('/api/units').set(headers()).send({ name: 'refused' });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('CLIENT_MOVING');
    await kill(workers[workers.length - 1]);
    await blocker.end();
    await startWorker();
    const job = await until(
      () => api.get(`/moves/${jobId}`),
      (body) => body.data.status !== 'running',
      90_000,
    );
    expect(job).toMatchObject({ status: 'failed' });
    expect(job.error).toMatch(/stopped at step switching/);
    await expectUndone();
  }, 150_000);

  it('a switch longer than CLIENT_MOVE_PAUSE_MAX_MS gives up by itself; a worker killed after the switch leaves a move the next one finishes', async () => {
    const row = await clientRow();
    const live = workers.find((w) => w.exitCode === null && w.signalCode === null)!;
    await kill(live);
    await startWorker({ CLIENT_MOVE_PAUSE_MAX_MS: '1500' });
    const blocker = await slowWriter(row.database);
    const started = await api.post(`/clients/${kappa.id}/move`).send({ serverId: twoId });
    const failed = await until(
      () => api.get(`/moves/${started.body.data.jobId}`),
      (body) => body.data.status !== 'running' && body.data.status !== 'queued',
      60_000,
    );
    await blocker.end();
    expect(failed).toMatchObject({ status: 'failed', step: 'switching' });
    expect(failed.error).toMatch(/longer than 1500 ms/);
    expect(failed.pauseMs as number).toBeGreaterThanOrEqual(1500);
    await expectUndone();

    // Killed after the switch: the switch is held (a slow writer) until the former database's row
    // is locked, so the clean-up's first step waits; the worker dies there and the next one finishes.
    await kill(workers[workers.length - 1]);
    await startWorker({ CLIENT_MOVE_PAUSE_MAX_MS: '600000' });
    const slow = await slowWriter(row.database);
    const again = await api.post(`/clients/${kappa.id}/move`).send({ serverId: twoId });
    expect(again.status).toBe(202);
    await until(
      () => api.get(`/moves/${again.body.data.jobId}`),
      (body) => body.data.step === 'switching',
      60_000,
    );
    const holder = new Client({ connectionString: one.url('postgres') });
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query(`BEGIN; ALTER DATABASE "${row.database}" CONNECTION LIMIT 1000`);
    await slow.end();
    const deadline = Date.now() + 30_000;
    while ((await clientRow()).serverId !== twoId) {
      if (Date.now() > deadline) throw new Error('the move never switched');
      await sleep(20);
    }
    await sleep(300);
    expect((await api.get(`/moves/${again.body.data.jobId}`)).body.data.status).toBe('running');
    await kill(workers[workers.length - 1]);
    await holder.query('ROLLBACK');
    await holder.end();
    await startWorker();
    const done = await until(
      () => api.get(`/moves/${again.body.data.jobId}`),
      (body) => body.data.status !== 'running' && body.data.status !== 'queued',
      90_000,
    );
    expect(done).toMatchObject({ status: 'done', step: 'finished', mode: 'online' });
    const moved = await clientRow();
    expect(moved.serverId).toBe(twoId);
    expect(await two.query(moved.database, 'SELECT subname FROM pg_subscription')).toEqual([]);
    expect(await one.query('postgres', 'SELECT slot_name FROM pg_replication_slots')).toEqual([]);
    await write('after-the-move');
    const stored = new Set(
      (await two.query<{ name: string }>(moved.database, 'SELECT name FROM public.units')).map((r) => r.name),
    );
    expect(written.filter((name) => !stored.has(name))).toEqual([]);
  }, 150_000);
});
