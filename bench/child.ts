import { ChildProcess, fork, spawn } from 'node:child_process';
import { join } from 'node:path';

const WORKER_JS = join(__dirname, '..', 'src', 'worker.js');

export interface Child {
  port: number;
  /** The CPU profile it writes as it exits (with BENCH_PROFILE_DIR). */
  profile?: string;
  process: ChildProcess;
  ask<T>(type: string): Promise<T>;
  stop(): Promise<void>;
}

/**
 * A child that writes a CPU profile writes it as it exits, which takes long after a long load on a
 * busy machine: it is given this long (BENCH_PROFILE_WAIT_S) before it is killed, instead of 5 s.
 */
const PROFILE_WAIT_MS = Number(process.env.BENCH_PROFILE_WAIT_S ?? 300) * 1000;

/**
 * Starts a compiled bench server (dist-bench/bench/servers/NAME.js) and waits for its port.
 * BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of every child there when it stops.
 */
export async function startChild(name: string, env: NodeJS.ProcessEnv): Promise<Child> {
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const profileName = `${name}-${Date.now()}.cpuprofile`;
  const child = fork(join(__dirname, 'servers', `${name}.js`), [], {
    env: { ...process.env, ...env },
    stdio: 'inherit',
    execArgv: profileDir
      ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${profileName}`]
      : [],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    child.on('message', (m: { type: string; port?: number }) => m.type === 'ready' && resolve(m.port!));
  });
  return {
    port,
    profile: profileDir ? join(profileDir, profileName) : undefined,
    process: child,
    ask: <T>(type: string) =>
      new Promise<T>((resolve) => {
        const onMessage = (m: { type: string } & T) => {
          if (m.type !== type) return;
          child.off('message', onMessage);
          resolve(m);
        };
        child.on('message', onMessage);
        child.send({ type });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), profileDir ? PROFILE_WAIT_MS : 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.send({ type: 'stop' });
      }),
  };
}

/** Starts one worker process (the compiled src/worker.js) and resolves once it runs. */
export function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, WORKER_JS], {
    env: {
      ...env,
      QUEUE_PROCESSORS_ENABLED: 'true',
      WORKER_PORT: '0',
      LOG_LEVEL: 'log',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 180000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Worker running')) {
        clearTimeout(timer);
        output = '';
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}:\n${output.slice(-2000)}`)));
  });
}
