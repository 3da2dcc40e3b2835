import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Compiles the app (as `npm run build` does) into `dist/<folder>`, a folder of the calling test's
 * own so test files running side by side never write over each other's output; type errors
 * elsewhere in the tree do not stop the emit. Resolves with the output folder.
 */
export function compileApp(folder: string): Promise<string> {
  const out = join(ROOT, 'dist', folder);
  const entry = join(out, 'src', 'worker.js');
  return new Promise((resolve, reject) => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = [
      tsc,
      '-p',
      'tsconfig.build.json',
      '--outDir',
      out,
      '--tsBuildInfoFile',
      join(out, '.tsbuildinfo'),
    ];
    execFile(process.execPath, args, { cwd: ROOT }, () =>
      existsSync(entry) ? resolve(out) : reject(new Error(`tsc did not produce ${entry}`)),
    );
  });
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
