/**
 * Backup and restore throughput: a client database of BENCH_BACKUP_MB megabytes (each size in turn;
 * default 10 and 250) backed up through the API (pg_dump → AES-256-GCM → SHA-256 → local store)
 * and restored in place (read back → hash → decrypt → pg_restore → migrations → switch), beside the
 * plain tools on the same database: `pg_dump -Fc` to a file, and `pg_restore --single-transaction`
 * of that file into an empty database. Prints MB/s of each and the ratios, how long the in-place
 * restore answered 503 CLIENT_RESTORING, and another client's read p99 during a second backup beside
 * its p99 alone.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/backups.js
 *
 * The data are rows of random bytes (pg_dump cannot compress them), so MB is the database's size.
 * It boots the real app (processors in the same process) against a throw-away master database.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { clientDatabase, sql } from '../test/support/pg';
import { SmtpSink } from '../test/support/smtp-sink';
import {
  bootApp,
  ProvisionedClient,
  provisionClient,
  superAdminToken,
  TestApp,
} from '../test/support/test-app';
import { ADMIN_URL } from '../test/support/test-env';
import { parseDatabaseUrl } from '../src/database/data-source-factory';
import { fmt, runAlone } from './bench-env';

const SIZES = (process.env.BENCH_BACKUP_MB ?? '10,250').split(',').map(Number);
const CHUNK = 1024 * 1024;
const MB = 1024 * 1024;
/** Read loops at once against the neighbour client, and how long it is measured alone first. */
const CONCURRENT = 4;
const NEIGHBOUR_ALONE_MS = 5000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function tool(command: string, args: string[]): Promise<void> {
  const admin = parseDatabaseUrl(ADMIN_URL);
  const child = spawn(
    command,
    [
      '--host',
      admin.host,
      '--port',
      String(admin.port),
      '--username',
      admin.username,
      '--no-password',
      ...args,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, PGPASSWORD: admin.password ?? '' } },
  );
  return new Promise((resolve, reject) =>
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`)),
    ),
  );
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const began = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - began) / 1e9;
}

async function until(get: () => request.Test, done: (data: Record<string, unknown>) => boolean) {
  for (;;) {
    const res = await get();
    if (res.status === 200 && done(res.body.data)) return res.body.data as Record<string, unknown>;
    await sleep(20);
  }
}

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
};

/** Latencies (ms) of `call`, CONCURRENT loops at a time, until `running` settles. */
async function latenciesWhile(call: () => request.Test, running: Promise<unknown>): Promise<number[]> {
  let over = false;
  void running.finally(() => (over = true));
  const latencies: number[] = [];
  const loop = async () => {
    while (!over) {
      const began = performance.now();
      const res = await call();
      if (res.status !== 200) throw new Error(`neighbour answered ${res.status}`);
      latencies.push(performance.now() - began);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT }, loop));
  await running;
  return latencies;
}

/** First to last answer 503 CLIENT_RESTORING (ms) to a read probed every 20 ms until `running` settles. */
async function unavailableWindow(call: () => request.Test, running: Promise<unknown>) {
  let over = false;
  void running.finally(() => (over = true));
  let first = 0;
  let last = 0;
  let refused = 0;
  while (!over) {
    const res = await call();
    const at = performance.now();
    if (res.status === 503 && res.body?.error?.code === 'CLIENT_RESTORING') {
      first ||= at;
      last = at;
      refused++;
    } else if (res.status !== 200) throw new Error(`restored client answered ${res.status}`);
    await sleep(20);
  }
  await running;
  return { ms: refused ? last - first : 0, refused };
}

async function benchSize(
  t: TestApp,
  sink: SmtpSink,
  root: string,
  megabytes: number,
  dumps: string,
  neighbour: ProvisionedClient,
) {
  const identifier = `bk${megabytes}`;
  const client = await provisionClient(t, sink, identifier);
  const database = clientDatabase(t.masterDatabase, identifier);
  await sql(database, 'CREATE TABLE public.bench_filler (b bytea)');
  for (let i = 0; i < megabytes; i++) {
    await sql(database, 'INSERT INTO public.bench_filler VALUES ($1)', [randomBytes(CHUNK)]);
  }
  const [{ size }] = await sql<{ size: string }>(
    database,
    'SELECT pg_database_size(current_database()) AS size',
  );
  const dbMb = Number(size) / MB;
  const api = (method: 'get' | 'post', path: string) =>
    t.http()[method](`/api/platform${path}`).set('Authorization', `Bearer ${root}`);

  const neighbourUnits = () =>
    t
      .http()
      .get('/api/units')
      .set({ 'X-Client-ID': neighbour.identifier, Authorization: `Bearer ${neighbour.adminToken}` });
  const ownUnits = () =>
    t
      .http()
      .get('/api/units')
      .set({ 'X-Client-ID': client.identifier, Authorization: `Bearer ${client.adminToken}` });
  const alone = p99(await latenciesWhile(neighbourUnits, sleep(NEIGHBOUR_ALONE_MS)));

  /** A backup through the API, `beside` running until it is COMPLETED; answers its id. */
  const backUp = async (beside: (finished: Promise<unknown>) => Promise<unknown>) => {
    const started = await api('post', `/clients/${client.id}/backups`);
    const id = started.body.data.backupId as number;
    const finished = until(
      () => api('get', `/backups/${id}`),
      (b) => b.status === 'COMPLETED' || b.status === 'FAILED',
    );
    await beside(finished);
    const done = await finished;
    if (done.status !== 'COMPLETED') throw new Error(`backup ${id}: ${JSON.stringify(done)}`);
    return id;
  };
  // Throughput alone; then the neighbour's reads during a second backup.
  let backupId = 0;
  const backupSeconds = await timed(async () => (backupId = await backUp((finished) => finished)));
  let during: number[] = [];
  await backUp(async (finished) => (during = await latenciesWhile(neighbourUnits, finished)));
  let window = { ms: 0, refused: 0 };
  const restoreSeconds = await timed(async () => {
    const started = await api('post', `/backups/${backupId}/restore`).send({ target: 'in-place' });
    if (started.status !== 202) throw new Error(`restore: ${started.status} ${JSON.stringify(started.body)}`);
    const finished = until(
      () => api('get', `/restores/${started.body.data.jobId}`),
      (j) => j.status === 'done' || j.status === 'failed',
    );
    window = await unavailableWindow(ownUnits, finished);
    const done = await finished;
    if (done.status !== 'done') throw new Error(`restore: ${JSON.stringify(done)}`);
  });

  const [{ current }] = await sql<{ current: string }>(
    t.masterDatabase,
    'SELECT database_name AS current FROM clients WHERE id = $1',
    [client.id],
  );
  const file = join(dumps, `${identifier}.dump`);
  const dumpSeconds = await timed(() =>
    tool('pg_dump', ['--format=custom', '--no-owner', '--file', file, current]),
  );
  const plain = `${database}_plain`;
  await sql('postgres', `CREATE DATABASE "${plain}"`);
  const plainRestoreSeconds = await timed(() =>
    tool('pg_restore', [
      '--no-owner',
      '--no-acl',
      '--exit-on-error',
      '--single-transaction',
      '--dbname',
      plain,
      file,
    ]),
  );
  await sql('postgres', `DROP DATABASE "${plain}" WITH (FORCE)`);
  const fileMb = (await stat(file)).size / MB;

  const rate = (seconds: number) => fmt(dbMb / seconds);
  console.log(
    `backups ${megabytes} MB (database ${fmt(dbMb)} MB, archive ${fmt(fileMb)} MB): ` +
      `backup ${fmt(backupSeconds, 2)} s = ${rate(backupSeconds)} MB/s beside pg_dump ${fmt(dumpSeconds, 2)} s = ` +
      `${rate(dumpSeconds)} MB/s (ratio ${fmt(backupSeconds / dumpSeconds, 2)}); restore ${fmt(restoreSeconds, 2)} s = ` +
      `${rate(restoreSeconds)} MB/s beside pg_restore ${fmt(plainRestoreSeconds, 2)} s = ${rate(plainRestoreSeconds)} MB/s ` +
      `(ratio ${fmt(restoreSeconds / plainRestoreSeconds, 2)}); in-place restore answered 503 CLIENT_RESTORING ` +
      `for ${fmt(window.ms / 1000, 2)} s (${window.refused} probes); another client's p99 ${fmt(p99(during))} ms ` +
      `during the backup beside ${fmt(alone)} ms alone (ratio ${fmt(p99(during) / alone, 2)}, goal <= 1.5)`,
  );
}

export async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'bench-backups-'));
  const sink = await new SmtpSink().start();
  const t = await bootApp({
    env: { SMTP_URL: sink.url, BACKUP_DIR: dir, BACKUP_SCHEDULE: '', LOG_LEVEL: 'warn' },
  });
  try {
    const root = await superAdminToken(t);
    const neighbour = await provisionClient(t, sink, 'bkneighbour');
    for (const megabytes of SIZES) await benchSize(t, sink, root, megabytes, dir, neighbour);
  } finally {
    await t.close();
    await sink.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (require.main === module) runAlone(main);
