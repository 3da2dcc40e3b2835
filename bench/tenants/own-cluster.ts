import { execFile, fork } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `max_connections` of the bench's own cluster: room for a ceiling that holds 1,000 clients. */
const MAX_CONNECTIONS = Number(process.env.BENCH_PG_MAX_CONNECTIONS ?? 1200);
const SHARED_BUFFERS = process.env.BENCH_PG_SHARED_BUFFERS ?? '256MB';
/**
 * What docs/tenancy.md asks an operator to set for a thousand databases: autovacuum's launcher
 * starts a worker in each database once per naptime, so at the default 60 s and 1,000 databases a
 * worker (a new process that loads that database's catalog) starts every 60 ms.
 */
const FLEET_SETTINGS = ['autovacuum_naptime=600', 'autovacuum_max_workers=3'];
/** Further server settings, as `name=value` separated by spaces (`autovacuum_naptime=60` to see the default's cost). */
const EXTRA_SETTINGS = [
  ...FLEET_SETTINGS,
  ...(process.env.BENCH_PG_SETTINGS ?? '').split(' ').filter(Boolean),
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** initdb and pg_ctl refuse root: as root they run as the `postgres` user. */
async function asOwner(bin: string, command: string, args: string[]) {
  const [file, argv] =
    process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]]
      : [join(bin, command), args];
  await run(file, argv, { cwd: tmpdir() });
}

/**
 * `BENCH_PG_CLUSTER=1 node dist-bench/bench/tenants/<bench>.js`: the bench runs against a PostgreSQL
 * cluster of its own (initdb in a temporary folder, `max_connections` BENCH_PG_MAX_CONNECTIONS, trust
 * authentication on 127.0.0.1, no fsync), made before and removed after, so an operator's tuning
 * (a connection ceiling above the shared server's 100 connections) can be benched. The bench itself
 * runs in a child process: the test harness reads TEST_DATABASE_ADMIN_URL when it loads.
 */
export async function runOnOwnCluster(script: string): Promise<void> {
  const versions = (await readdir('/usr/lib/postgresql')).sort((a, b) => Number(b) - Number(a));
  const bin = join('/usr/lib/postgresql', versions[0], 'bin');
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'bench-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) await run('chown', ['postgres:postgres', dir]);
  let started = false;
  try {
    await asOwner(bin, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      `-c max_connections=${MAX_CONNECTIONS}`,
      `-c shared_buffers=${SHARED_BUFFERS}`,
      ...EXTRA_SETTINGS.map((setting) => `-c ${setting}`),
    ].join(' ');
    await asOwner(bin, 'pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
    started = true;
    console.log(
      `Own PostgreSQL cluster on port ${port}: max_connections ${MAX_CONNECTIONS}, shared_buffers ${SHARED_BUFFERS}${EXTRA_SETTINGS.map((s) => `, ${s}`).join('')}`,
    );
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TEST_DATABASE_ADMIN_URL: `postgres://postgres@127.0.0.1:${port}/postgres`,
      BENCH_DISPOSABLE_CLUSTER: '1',
      BENCH_PG_DATA: data, // its postmaster.pid names the processes whose CPU a bench may count
    };
    delete env.BENCH_PG_CLUSTER;
    const code = await new Promise<number>((resolve) => {
      const child = fork(script, [], { env, stdio: 'inherit' });
      const stop = () => child.kill('SIGINT');
      process.once('SIGINT', stop);
      child.once('exit', (c) => {
        process.off('SIGINT', stop);
        resolve(c ?? 1);
      });
    });
    if (code !== 0) throw new Error(`the bench exited with ${code}`);
  } finally {
    if (started)
      await asOwner(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/** The bench's entry: on its own cluster when BENCH_PG_CLUSTER is set, on the shared one otherwise. */
export function benchEntry(script: string, alone: () => void): void {
  if (!process.env.BENCH_PG_CLUSTER) return alone();
  runOnOwnCluster(script).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
