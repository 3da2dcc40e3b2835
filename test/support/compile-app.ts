import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runPrefix } from './test-env';

const ROOT = join(__dirname, '..', '..');

/** The run's one build of the app, shared by every test file that starts compiled processes. */
export const runBuildFolder = () => join(ROOT, 'dist', `test-${runPrefix()}`);

function tscArgs(out: string) {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  return [tsc, '-p', 'tsconfig.build.json', '--outDir', out, '--tsBuildInfoFile', join(out, '.tsbuildinfo')];
}

/**
 * Starts the run's build in the background and takes its lock, so test files that need it only
 * wait for the mark. The global setup calls it for a run of the whole suite: built at the start,
 * the app is ready long before the first such file, instead of compiling while the workers are busy.
 */
export function startRunBuild(): void {
  const out = runBuildFolder();
  mkdirSync(`${out}.lock`, { recursive: true });
  const [tsc, ...args] = tscArgs(out);
  // The shell writes the mark when tsc exits, whatever becomes of the process that started it.
  const child = spawn(
    'sh',
    ['-c', `"$0" "$@" >/dev/null 2>&1; : > "${out}.done"`, process.execPath, tsc, ...args],
    {
      cwd: ROOT,
      stdio: 'ignore',
      detached: true,
    },
  );
  child.unref();
}

function compileInto(out: string): Promise<void> {
  const [tsc, ...args] = tscArgs(out);
  const options = { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 };
  return new Promise((resolve) => execFile(process.execPath, [tsc, ...args], options, () => resolve()));
}

/**
 * Compiles the app (as `npm run build` does) once per test run into a folder of the run's own, and
 * resolves with that folder. The first caller, whichever jest worker it runs in, takes the lock
 * and compiles (unless the global setup started the build); the others wait for its mark. Type
 * errors elsewhere in the tree do not stop the emit.
 */
export async function compileApp(): Promise<string> {
  const out = runBuildFolder();
  const entry = join(out, 'src', 'worker.js');
  const done = `${out}.done`;
  try {
    mkdirSync(`${out}.lock`, { recursive: false });
  } catch {
    const deadline = Date.now() + 300_000;
    while (!existsSync(done) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    if (existsSync(entry)) return out;
    throw new Error(`the run's build did not produce ${entry}`);
  }
  await compileInto(out);
  writeFileSync(done, '');
  if (!existsSync(entry)) throw new Error(`tsc did not produce ${entry}`);
  return out;
}

/** Removes the run's build (global teardown). */
export function removeRunBuild() {
  const out = runBuildFolder();
  for (const path of [out, `${out}.lock`, `${out}.done`]) rmSync(path, { recursive: true, force: true });
}

export interface StartedWorker {
  child: ChildProcess;
  /** The port of its health and metrics probes. */
  port: number;
}

/**
 * Starts the compiled worker of `out` (processors on, its probes on a free port) and resolves once
 * it runs; one that has not started within 30 s is killed, so it never outlives the test.
 */
export function startCompiledWorker(out: string, env: NodeJS.ProcessEnv): Promise<StartedWorker> {
  const child = spawn(process.execPath, [join(out, 'src', 'worker.js')], {
    cwd: ROOT,
    env: { ...env, QUEUE_PROCESSORS_ENABLED: 'true', WORKER_PORT: '0', LOG_LEVEL: 'log' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker did not start:\n${output}`));
    }, 30000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const running = /Worker running; probes on port (\d+)/.exec(output);
      if (running) {
        clearTimeout(timer);
        resolve({ child, port: Number(running[1]) });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}:\n${output}`)));
  });
}
