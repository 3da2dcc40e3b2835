import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

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

  get adminUrl() {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  url(database: string) {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
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
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
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
