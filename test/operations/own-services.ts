import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client as PgClient } from 'pg';

const run = promisify(execFile);

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** initdb refuses root: as root, the cluster's commands run as the `postgres` user. */
const asOwner = (command: string, args: string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];

async function postgresBin(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql')).sort((a, b) => Number(b) - Number(a));
  return join('/usr/lib/postgresql', versions[0], 'bin');
}

/** A PostgreSQL cluster of the test's own, in a temporary folder, that the test may stop and start. */
export class OwnPostgres {
  port = 0;
  private dir = '';
  private bin = '';

  /** `settings` are server settings given at every start (`{ wal_level: 'logical' }`). */
  constructor(private readonly settings: Record<string, string> = {}) {}

  get adminUrl() {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  url(database: string, user = 'postgres') {
    return `postgres://${user}@127.0.0.1:${this.port}/${database}`;
  }

  /** Runs `text` on `database` as `user` (trust logins) over a connection of its own; answers the rows. */
  async query<T = Record<string, unknown>>(database: string, text: string, user = 'postgres'): Promise<T[]> {
    const client = new PgClient({ connectionString: this.url(database, user) });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  }

  async create(): Promise<this> {
    this.bin = await postgresBin();
    this.port = await freePort();
    this.dir = await mkdtemp(join(tmpdir(), 'own-pg-'));
    if (process.getuid?.() === 0) await run('chown', ['postgres:postgres', this.dir]);
    await this.ownerRun('initdb', [
      '-D',
      join(this.dir, 'data'),
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
    ]);
    await this.start();
    return this;
  }

  start() {
    const extra = Object.entries(this.settings).map(([name, value]) => ` -c ${name}=${value}`);
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off${extra.join('')}`;
    return this.ownerRun('pg_ctl', [
      '-D',
      join(this.dir, 'data'),
      '-o',
      options,
      '-l',
      join(this.dir, 'log'),
      '-w',
      'start',
    ]);
  }

  /** Fast shutdown: every session is ended (57P01) and new connections are refused. */
  stop() {
    return this.ownerRun('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
  }

  async destroy() {
    if (!this.dir) return;
    await this.stop().catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
  }

  private async ownerRun(command: string, args: string[]) {
    const [file, argv] = asOwner(join(this.bin, command), args);
    await run(file, argv, { cwd: tmpdir() });
  }
}

/** A redis-server of the test's own, without persistence, that the test may stop and start. */
export class OwnRedis {
  port = 0;
  private child?: ChildProcess;

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.port ||= await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
    child.stdout.resume();
    return this;
  }

  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

/** PgBouncer runs as `postgres` when the test runs as root (it refuses root). */
const PGBOUNCER =
  ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((path) => existsSync(path)) ?? 'pgbouncer';

/**
 * A PgBouncer of the test's own in transaction pooling mode, in front of `host:port` (every
 * database by its own name), configured as test/pgbouncer/run.sh configures its own. `admin` runs a
 * command on its console (`SHOW STATS`, `PAUSE`, `RESUME`).
 */
export class OwnPgBouncer {
  port = 0;
  private dir = '';
  private child?: ChildProcess;

  async start(host: string, serverPort: number): Promise<this> {
    this.port = await freePort();
    this.dir = await mkdtemp(join(tmpdir(), 'own-pgbouncer-'));
    await writeFile(
      join(this.dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${host} port=${serverPort}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${this.port}`,
        'unix_socket_dir =',
        'pool_mode = transaction',
        'auth_type = trust',
        `auth_file = ${join(this.dir, 'userlist.txt')}`,
        'auth_user = postgres',
        'admin_users = postgres',
        'max_client_conn = 500',
        'default_pool_size = 20',
        'server_idle_timeout = 5',
        '',
      ].join('\n'),
    );
    await writeFile(join(this.dir, 'userlist.txt'), '"postgres" ""\n');
    const asRoot = process.getuid?.() === 0;
    if (asRoot) await run('chown', ['-R', 'postgres', this.dir]);
    const args = [...(asRoot ? ['-u', 'postgres'] : []), join(this.dir, 'pgbouncer.ini')];
    const child = spawn(PGBOUNCER, args, { stdio: 'ignore' });
    this.child = child;
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`pgbouncer exited with ${code}`))),
    );
    exited.catch(() => undefined);
    for (let tries = 0; ; tries++) {
      const ok = await Promise.race([
        this.admin('SHOW VERSION').then(
          () => true,
          () => false,
        ),
        exited,
      ]);
      if (ok) return this;
      if (tries > 50) throw new Error(`pgbouncer did not start on ${this.port}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async admin<T = Record<string, string>>(command: string): Promise<T[]> {
    const client = new PgClient({
      host: '127.0.0.1',
      port: this.port,
      user: 'postgres',
      database: 'pgbouncer',
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query(command)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Transactions it carried to `database` (0 when it never saw that database). */
  async transactions(database: string): Promise<number> {
    const rows = await this.admin<{ database: string; total_xact_count: string }>('SHOW STATS');
    return Number(rows.find((row) => row.database === database)?.total_xact_count ?? 0);
  }

  async stop() {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}
