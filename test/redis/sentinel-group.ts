import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from '../operations/own-services';

export const GROUP = 'mymaster';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A Redis primary, one replica and three Sentinels of the test's own (Debian's `redis-server` and
 * `redis-sentinel`), on free ports, without persistence, in a temporary folder removed at the end.
 * Sentinels declare the primary down after 1 s, so a failover takes a few seconds.
 */
export class SentinelGroup {
  readonly ports = { primary: 0, replica: 0, sentinels: [] as number[] };
  private dir = '';
  private readonly children = new Map<string, ChildProcess>();

  /** The URL naming the group, as `REDIS_URL` takes it. */
  get url() {
    return `redis+sentinel://${this.ports.sentinels.map((p) => `127.0.0.1:${p}`).join(',')}/${GROUP}`;
  }

  async start(): Promise<this> {
    this.dir = await mkdtemp(join(tmpdir(), 'own-sentinel-'));
    this.ports.primary = await freePort();
    this.ports.replica = await freePort();
    for (let i = 0; i < 3; i++) this.ports.sentinels.push(await freePort());
    await this.server('primary', this.ports.primary);
    await this.server('replica', this.ports.replica, [
      '--replicaof',
      '127.0.0.1',
      String(this.ports.primary),
    ]);
    await this.until('the replica in sync', async () =>
      (await this.info(this.ports.replica, 'replication')).includes('master_link_status:up'),
    );
    for (const [i, port] of this.ports.sentinels.entries()) {
      const config = join(this.dir, `sentinel-${i}.conf`);
      await writeFile(
        config,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${this.dir}`,
          `sentinel monitor ${GROUP} 127.0.0.1 ${this.ports.primary} 2`,
          `sentinel down-after-milliseconds ${GROUP} 1000`,
          `sentinel failover-timeout ${GROUP} 10000`,
          '',
        ].join('\n'),
      );
      await this.spawn(`sentinel-${i}`, 'redis-sentinel', [config], '+monitor master');
    }
    // A failover needs every Sentinel to know the replica and a quorum of the others.
    await this.until('the Sentinels to know each other and the replica', async () => {
      for (const port of this.ports.sentinels) {
        const [others, replicas] = await this.ask(port, async (s) => [
          (await s.call('SENTINEL', 'SENTINELS', GROUP)) as unknown[],
          (await s.call('SENTINEL', 'REPLICAS', GROUP)) as unknown[],
        ]);
        if (others.length < 2 || replicas.length < 1) return false;
      }
      return true;
    });
    return this;
  }

  /** The port of the primary the Sentinels name now. */
  async primaryPort(): Promise<number> {
    const [, port] = (await this.ask(this.ports.sentinels[0], (s) =>
      s.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', GROUP),
    )) as [string, string];
    return Number(port);
  }

  /** Kills the primary (SIGKILL, as a lost machine) and resolves once the Sentinels name the replica. */
  async losePrimary(timeoutMs = 30_000): Promise<void> {
    await this.kill('primary');
    await this.until(
      'the Sentinels to promote the replica',
      async () => (await this.primaryPort()) === this.ports.replica,
      timeoutMs,
    );
  }

  /** A connection straight to one data node (not through Sentinel). */
  node(port: number): Redis {
    return new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1 });
  }

  async stop(): Promise<void> {
    await Promise.all([...this.children.keys()].map((name) => this.kill(name)));
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }

  private server(name: string, port: number, extra: string[] = []) {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    return this.spawn(name, 'redis-server', [...args, '--dir', this.dir, ...extra]);
  }

  private spawn(name: string, command: string, args: string[], ready = 'Ready to accept connections') {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    this.children.set(name, child);
    return new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`${command} did not start: ${output}`)), 15_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(ready)) {
          clearTimeout(timer);
          child.stdout.off('data', onData);
          child.stdout.resume();
          resolve();
        }
      };
      child.stdout.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${command} exited with ${code}: ${output}`));
      });
    });
  }

  private async kill(name: string) {
    const child = this.children.get(name);
    this.children.delete(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  private info(port: number, section: string): Promise<string> {
    return this.ask(port, (r) => r.info(section));
  }

  private async ask<T>(port: number, question: (redis: Redis) => Promise<T>): Promise<T> {
    const redis = this.node(port);
    try {
      await redis.connect();
      return await question(redis);
    } finally {
      redis.disconnect();
    }
  }

  private async until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check().catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(100);
    }
  }
}
