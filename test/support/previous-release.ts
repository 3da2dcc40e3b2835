import { ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

import { runPrefix } from './test-env';

/**
 * The previous release (the commit in release/previous), built from git and started as a child
 * process beside the current code: the N-1 test and the rolling-upgrade drill run it against
 * databases the current migrations made.
 */

/** The repository's root, from this file's place in the tree or in a compiled copy (dist-bench/test/support). */
function findRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'release', 'previous')) && existsSync(join(dir, 'package.json'))) return dir;
  }
  throw new Error(`no release/previous above ${from}`);
}

export const REPO_ROOT = findRoot(__dirname);

export function previousReleaseSha(): string {
  const lines = readFileSync(join(REPO_ROOT, 'release', 'previous'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (lines.length !== 1 || !/^[0-9a-f]{40}$/.test(lines[0])) {
    throw new Error('release/previous must hold one full commit sha (besides # comments)');
  }
  return lines[0];
}

const git = (args: string[]) => spawnSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8' });

/** Throws, saying how to fetch it, when the commit is not in this clone (a shallow clone). */
export function assertCommitInClone(sha: string): void {
  if (git(['cat-file', '-e', `${sha}^{commit}`]).status === 0) return;
  throw new Error(
    `The previous release ${sha} (release/previous) is not in this clone, which is probably shallow. ` +
      `Fetch it with \`git fetch origin ${sha}\` (or the whole history: \`git fetch --unshallow\`), ` +
      'or clone without --depth (in CI: a full checkout).',
  );
}

type Manifest = { dependencies?: Record<string, string>; overrides?: Record<string, unknown> };

/**
 * The dependencies (and overrides) whose declaration differs between the previous release and the
 * current package.json. The build runs on the current node_modules only when there are none: the
 * previous release then gets exactly the packages it was released with (the lock file resolves the
 * same declarations the same way), and no install runs in the test.
 */
export function dependencyDifferences(previous: Manifest, current: Manifest): string[] {
  const names = new Set([
    ...Object.keys(previous.dependencies ?? {}),
    ...Object.keys(current.dependencies ?? {}),
  ]);
  const differences = [...names]
    .filter((name) => previous.dependencies?.[name] !== current.dependencies?.[name])
    .map(
      (name) =>
        `${name}: ${previous.dependencies?.[name] ?? '(none)'} then, ${current.dependencies?.[name] ?? '(none)'} now`,
    );
  if (JSON.stringify(previous.overrides ?? {}) !== JSON.stringify(current.overrides ?? {})) {
    differences.push('overrides');
  }
  return differences;
}

/** The run's one build of the previous release (one per sha), removed by the global teardown. */
export const previousReleaseFolder = (sha: string) =>
  join(REPO_ROOT, 'dist', `test-${runPrefix()}-previous-${sha.slice(0, 12)}`);

function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${command} ${args.join(' ')}: ${err.message}\n${stdout}${stderr}`)) : resolve(),
    ),
  );
}

async function build(sha: string, tree: string): Promise<void> {
  mkdirSync(tree, { recursive: true });
  await run('sh', ['-c', `git -C "$0" archive "$1" | tar -x -C "$2"`, REPO_ROOT, sha, tree], REPO_ROOT);
  const previous = JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8')) as Manifest;
  const current = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
  const own = process.env.PREVIOUS_RELEASE_NODE_MODULES;
  const differences = dependencyDifferences(previous, current);
  if (differences.length && !own) {
    throw new Error(
      `The previous release ${sha} declares other dependencies than the current package.json, so it cannot run on the current node_modules:\n  ${differences.join('\n  ')}\n` +
        `Install its own (\`git worktree add --detach /tmp/previous ${sha} && npm ci --prefix /tmp/previous\`) and set PREVIOUS_RELEASE_NODE_MODULES=/tmp/previous/node_modules.`,
    );
  }
  symlinkSync(own ?? join(REPO_ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
  // Its own build, as its `npm run build` does: its tsconfig.build.json, into its dist/.
  const tsc = join(tree, 'node_modules', 'typescript', 'bin', 'tsc');
  await run(process.execPath, [tsc, '-p', 'tsconfig.build.json'], tree).catch((err: Error) => {
    // Type errors do not stop the emit (as in compile-app.ts); a missing entry point does.
    if (!existsSync(join(tree, 'dist', 'src', 'main.js'))) throw err;
  });
}

export interface PreviousRelease {
  sha: string;
  /** Its source tree (its own package.json, openapi.json, vendor/), the working directory it runs in. */
  tree: string;
  main: string;
}

/**
 * Builds the previous release once per run and sha: `git archive` into a folder of the run, the
 * current node_modules linked in (see dependencyDifferences), compiled with its own
 * tsconfig.build.json. The first caller, in whichever jest worker, takes the lock and builds; the
 * others wait for its mark.
 */
export async function buildPreviousRelease(sha = previousReleaseSha()): Promise<PreviousRelease> {
  assertCommitInClone(sha);
  const out = previousReleaseFolder(sha);
  const tree = join(out, 'tree');
  const main = join(tree, 'dist', 'src', 'main.js');
  const done = `${out}.done`;
  try {
    mkdirSync(dirname(out), { recursive: true });
    mkdirSync(`${out}.lock`, { recursive: false });
  } catch {
    const deadline = Date.now() + 300_000;
    while (!existsSync(done) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    const failed = existsSync(done) ? readFileSync(done, 'utf8') : 'timed out';
    if (failed) throw new Error(`the build of the previous release failed: ${failed}`);
    return { sha, tree, main };
  }
  try {
    await build(sha, tree);
    writeFileSync(done, '');
  } catch (err) {
    writeFileSync(done, (err as Error).message || 'failed');
    throw err;
  }
  return { sha, tree, main };
}

/** Removes the run's builds of previous releases (global teardown). */
export function removePreviousReleaseBuilds() {
  const dist = join(REPO_ROOT, 'dist');
  if (!existsSync(dist)) return;
  const mine = `test-${runPrefix()}-previous-`;
  for (const name of readdirSync(dist)) {
    if (name.startsWith(mine)) rmSync(join(dist, name), { recursive: true, force: true });
  }
}

export interface RunningRelease {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  output: () => string;
  exited: Promise<number | null>;
  /** SIGTERM (a graceful shutdown), then SIGKILL after `graceMs`; resolves once it exited. */
  stop: (graceMs?: number) => Promise<number | null>;
}

/**
 * Starts a built API (`node <main>`) in `cwd` on a free port and resolves once it listens; one that
 * has not started within 60 s is killed, so it never outlives the caller.
 */
export function startApi(main: string, cwd: string, env: NodeJS.ProcessEnv): Promise<RunningRelease> {
  const child = spawn(process.execPath, [main], {
    cwd,
    env: { ...env, LOG_LEVEL: 'log', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (graceMs = 10_000) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${main} did not start:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Listening on port (\d+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        const port = Number(listening[1]);
        resolve({ child, port, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${main} exited with ${code}:\n${output}`));
    });
  });
}
