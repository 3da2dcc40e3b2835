import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { compileApp, runBuildFolder, startCompiledWorker } from '../support/compile-app';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { databaseUrl } from '../support/test-env';
import { bootApp, ProvisionedClient, provisionClient, superAdminToken, TestApp } from '../support/test-app';
import { platform, sleep, until } from './helpers';

const OUT = runBuildFolder();

const startWorker = async (env: NodeJS.ProcessEnv) => (await startCompiledWorker(OUT, env)).child;

async function kill(worker: ChildProcess) {
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGKILL');
  await exited;
}

/** Files under a folder, recursively. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

/**
 * A worker killed with SIGKILL in the middle of a backup or of an in-place restore: no partial
 * backup is ever COMPLETED nor left in the store, and the client is served again afterwards.
 */
describe('backups and restores survive a killed worker', () => {
  const sink = new SmtpSink();
  let dir: string;
  let t: TestApp;
  let acme: ProvisionedClient;
  let api: ReturnType<typeof platform>;
  const workers: ChildProcess[] = [];
  const headers = () => ({ 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` });
  const unitNames = async () => {
    const res = await t.http().get('/api/units').set(headers());
    expect(res.status).toBe(200);
    return (res.body.data as { name: string }[]).map((u) => u.name).sort();
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'backups-kill-'));
    await Promise.all([compileApp(), sink.start()]);
    t = await bootApp({
      env: {
        QUEUE_PROCESSORS_ENABLED: 'false',
        SMTP_URL: sink.url,
        BACKUP_DIR: dir,
        BACKUP_SCHEDULE: '',
        BACKUP_HEARTBEAT_MS: '500',
      },
    });
    workers.push(await startWorker(t.env));
    api = platform(t, await superAdminToken(t));
    acme = await provisionClient(t, sink, 'acme');
  }, 240_000);
  afterAll(async () => {
    const live = workers.filter((w) => w.exitCode === null && w.signalCode === null);
    await Promise.all(live.map((w) => kill(w)));
    await t?.close();
    await sink.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('marks a backup whose worker died FAILED, removes what it wrote, and backs up afterwards', async () => {
    expect((await t.http().post('/api/units').set(headers()).send({ name: 'Kept' })).status).toBe(201);
    // pg_dump waits for this lock, so the backup is caught running.
    const blocker = new Client({ connectionString: databaseUrl(clientDatabase(t.masterDatabase, 'acme')) });
    await blocker.connect();
    await blocker.query('BEGIN; LOCK TABLE public.units IN ACCESS EXCLUSIVE MODE');
    const started = await api.post(`/clients/${acme.id}/backups`);
    expect(started.status).toBe(202);
    const { backupId } = started.body.data;
    await until(
      () => api.get(`/backups/${backupId}`),
      (b) => b.data.status === 'RUNNING',
    );
    await sleep(300);
    expect(filesUnder(dir)).toEqual([`backup-${backupId}.pgdump.enc.partial`]);
    await kill(workers[0]);
    await blocker.query('ROLLBACK');
    await blocker.end();

    workers.push(await startWorker(t.env));
    const failed = await until(
      () => api.get(`/backups/${backupId}`),
      (b) => b.data.status !== 'RUNNING',
      20_000,
    );
    expect(failed).toMatchObject({ status: 'FAILED', sha256: null, error: expect.stringMatching(/stopped/) });
    await sleep(500);
    expect(filesUnder(dir)).toEqual([]);

    const again = await api.post(`/clients/${acme.id}/backups`);
    const done = await until(
      () => api.get(`/backups/${again.body.data.backupId}`),
      (b) => b.data.status === 'COMPLETED' || b.data.status === 'FAILED',
    );
    expect(done.status).toBe('COMPLETED');
    expect(await unitNames()).toEqual(['Kept']);
  });

  it('serves the client from its own database after a worker died in the middle of an in-place restore', async () => {
    // Enough data that the restore is still under way when the worker is killed.
    const database = clientDatabase(t.masterDatabase, 'acme');
    await sql(database, 'CREATE TABLE public.filler (b bytea)');
    for (let i = 0; i < 20; i++) {
      await sql(database, 'INSERT INTO public.filler VALUES ($1)', [randomBytes(4 * 1024 * 1024)]);
    }
    const started = await api.post(`/clients/${acme.id}/backups`);
    const backup = await until(
      () => api.get(`/backups/${started.body.data.backupId}`),
      (b) => b.data.status === 'COMPLETED' || b.data.status === 'FAILED',
    );
    expect(backup.status).toBe('COMPLETED');
    expect((await t.http().post('/api/units').set(headers()).send({ name: 'After backup' })).status).toBe(
      201,
    );

    const restore = await api.post(`/backups/${backup.id}/restore`).send({ target: 'in-place' });
    expect(restore.status).toBe(202);
    const { jobId } = restore.body.data;
    for (;;) {
      const res = await t.http().get('/api/units').set(headers());
      if (res.status === 503) {
        expect(res.body.error.code).toBe('CLIENT_RESTORING');
        break;
      }
      await sleep(20);
    }
    const databases = () =>
      sql<{ datname: string }>(
        t.masterDatabase,
        'SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname LIKE $2',
        [`${database}%`, `\\_${database}%`],
      ).then((rows) => rows.map((r) => r.datname).sort());
    // Killed once the fresh database exists: the restore is filling it.
    while ((await databases()).length < 2) await sleep(10);
    await kill(workers[1]);
    expect((await api.get(`/restores/${jobId}`)).body.data.status).toBe('running');

    workers.push(await startWorker(t.env));
    const job = await until(
      () => api.get(`/restores/${jobId}`),
      (b) => b.data.status === 'done' || b.data.status === 'failed',
      20_000,
    );
    expect(job).toMatchObject({ status: 'failed', error: expect.stringMatching(/stopped/) });
    expect(await unitNames()).toEqual(['After backup', 'Kept']);
    expect(await databases()).toEqual([database]);
  });
});
