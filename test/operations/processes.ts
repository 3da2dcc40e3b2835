import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { compileApp, runBuildFolder } from '../support/compile-app';

const ROOT = join(__dirname, '..', '..');
const OUT = runBuildFolder();

export const compile = () => compileApp();

/** A spawned `node dist/src/main.js` or `worker.js`, its output kept for the assertions. */
export interface Spawned {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const STARTED = /(?:Listening on port|probes on port) (\d+)/;

/** Starts an API (`main`) or a worker and resolves once it listens. */
export function start(entry: 'main' | 'worker', env: NodeJS.ProcessEnv, out = OUT): Promise<Spawned> {
  const child = spawn(process.execPath, [join(out, 'src', `${entry}.js`)], {
    cwd: ROOT,
    env: { ...env, PORT: '0', WORKER_PORT: '0', LOG_FORMAT: 'json', LOG_LEVEL: 'log' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // one that starts late must not outlive the test
      reject(new Error(`${entry} did not start:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const started = STARTED.exec(output);
      if (started) {
        clearTimeout(timer);
        resolve({ child, port: Number(started[1]), output: () => output, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(({ code }) => reject(new Error(`${entry} exited with ${code}:\n${output}`)));
  });
}

/** Kills what is still running and waits for the exits (their pipes are open handles until then). */
export async function stopAll(processes: Spawned[]): Promise<void> {
  const live = processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
  for (const p of live) p.child.kill('SIGKILL');
  await Promise.all(live.map((p) => p.exited));
}

/** The JSON lines of a process's output (other lines are skipped). */
export function jsonLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
