import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { migrationName } from '../../src/database/migration-runner';
import { clientDatabase } from '../../test/support/pg';
import { undoNewestClientMigration } from '../../test/support/undo-migration';
import { SmtpSink } from '../../test/support/smtp-sink';
import { bootApp, SUPER_ADMIN } from '../../test/support/test-app';
import { fmt, withBenchRun } from '../bench-env';
import { makeFleet } from './fleet';

const CLIENTS = Number(process.env.BENCH_TENANTS ?? 1000);
/** The API as `npm run bench` compiled it beside this file. */
const MAIN_JS = join(__dirname, '..', '..', 'src', 'main.js');
const NEWEST = migrationName(CLIENT_MIGRATIONS[CLIENT_MIGRATIONS.length - 1]);

const seconds = (since: number) => (Date.now() - since) / 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Polls `check` every 20 ms until it holds; answers the seconds since `since`. */
async function until(what: string, since: number, check: () => Promise<boolean>, timeoutS = 600) {
  for (;;) {
    if (await check().catch(() => false)) return seconds(since);
    if (seconds(since) > timeoutS) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * Start-up with many clients, each one migration behind: a fleet of BENCH_TENANTS clients (1,000),
 * then an API process started with auto-migration on. Prints the time to liveness and to readiness
 * (neither should grow with the clients), until every client is migrated in the background, then a
 * migrate-all job with nothing pending and the migration status.
 */
export async function main(): Promise<void> {
  const sink = await new SmtpSink().start();
  const t = await bootApp({ env: { SMTP_URL: sink.url } });
  let api: ChildProcess | undefined;
  try {
    const fleet = await makeFleet(t, sink, CLIENTS, 'boot');
    const behind = Date.now();
    const limit = pLimit(8);
    await Promise.all(
      fleet.identifiers.map((identifier) =>
        limit(async () => {
          await undoNewestClientMigration(clientDatabase(t.masterDatabase, identifier));
        }),
      ),
    );
    const putBehind = seconds(behind);
    await t.close(); // the process under bench is the only one working the clients and the queues

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const get = (path: string, token?: string) =>
      fetch(`${base}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    const started = Date.now();
    api = spawn(process.execPath, [MAIN_JS], {
      env: { ...t.env, PORT: String(port), MULTITENANCY_DATABASE_AUTO_MIGRATE: 'true', LOG_LEVEL: 'error' },
      stdio: 'ignore',
    });
    const live = await until('liveness', started, async () => (await get('/management/health/liveness')).ok);
    const ready = await until(
      'readiness',
      started,
      async () => (await get('/management/health/readiness')).ok,
    );
    const migrated = await until('clients migrated', started, async () => {
      const metrics = await (await get('/metrics')).text();
      return /^clients_migrating 0$/m.test(metrics);
    });

    const login = await fetch(`${base}/auth/local`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier: SUPER_ADMIN.email, password: SUPER_ADMIN.password }),
    });
    const { jwt } = (await login.json()) as { jwt: string };
    const jobStarted = Date.now();
    const job = await fetch(`${base}/api/platform/clients/migrate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${jwt}` },
    });
    if (job.status !== 202) throw new Error(`migrate-all answered ${job.status}`);
    const { jobId } = ((await job.json()) as { data: { jobId: string } }).data;
    let counts: Record<string, number> = {};
    const jobSeconds = await until('migrate-all job', jobStarted, async () => {
      const view = (await (await get(`/api/platform/migrations/${jobId}`, jwt)).json()) as {
        data: { status: string; counts: Record<string, number> };
      };
      counts = view.data.counts;
      return view.data.status === 'finished';
    });

    const statusStarted = Date.now();
    const status = (await (await get('/api/platform/clients/migration-status', jwt)).json()) as {
      totalClients: number;
      clientsWithPendingMigrations: number;
    };
    const statusSeconds = seconds(statusStarted);

    console.log(
      `\nStart-up: ${CLIENTS} clients (made in ${fmt(fleet.seconds, 0)} s, put one migration behind, ${NEWEST} undone, in ${fmt(putBehind, 0)} s), API started with auto-migration`,
    );
    console.log(`  liveness answers after                     : ${fmt(live, 2)} s`);
    console.log(`  readiness answers after                    : ${fmt(ready, 2)} s`);
    console.log(`  every client migrated in the background by : ${fmt(migrated, 1)} s`);
    console.log(
      `  migrate-all job, nothing pending           : ${fmt(jobSeconds, 2)} s (${counts.done} done, ${counts.failed} failed, ${counts.migrated} migrated)`,
    );
    console.log(
      `  migration-status                           : ${fmt(statusSeconds, 2)} s (${status.totalClients} clients, ${status.clientsWithPendingMigrations} behind)`,
    );
  } finally {
    api?.kill('SIGKILL');
    await sink.stop();
  }
}

if (require.main === module) {
  void withBenchRun(main).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
