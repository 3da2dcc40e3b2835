import { ChildProcess, spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DbTarget } from '../database/data-source-factory';
import { pgToolConnectionArgs, pgToolEnv, pgToolExit } from '../database/pg-tool-process';

export { PgToolError } from '../database/pg-tool-process';

const BACKGROUND_NICENESS = 10;

/**
 * `pg_dump --format=custom` of a whole database (every schema: production and sandboxes), one
 * snapshot, to a stream. The stream errors (instead of ending) when pg_dump does not exit with 0,
 * so a consumer never takes a cut dump for a complete one.
 */
export function dumpDatabase(db: DbTarget): Readable {
  const dump = spawn('pg_dump', [...pgToolConnectionArgs(db), '--format=custom', '--no-owner'], {
    env: pgToolEnv(db),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  yieldCpu(dump);
  const exited = pgToolExit(dump, 'pg_dump');
  const gate = new Transform({
    transform: (chunk, _enc, done) => done(null, chunk),
    flush: (done) => void exited.then((err) => done(err)),
  });
  gate.on('close', () => {
    if (dump.exitCode === null) dump.kill('SIGKILL');
  });
  dump.stdout.on('error', (err) => gate.destroy(err));
  return dump.stdout.pipe(gate);
}

/**
 * A backup is background work: its pg_dump (and the compression it does) runs at a lower CPU
 * priority, so the requests of every client served beside it keep their latency.
 */
function yieldCpu(child: ChildProcess) {
  if (!child.pid) return;
  try {
    setPriority(child.pid, BACKGROUND_NICENESS);
  } catch {
    // Not permitted here: the dump runs at the usual priority.
  }
}

/** Restores a custom-format archive read from `archive` into an empty database, as one transaction. */
export async function restoreDatabase(db: DbTarget, archive: Readable): Promise<void> {
  const restore = spawn(
    'pg_restore',
    [...pgToolConnectionArgs(db), '--no-owner', '--no-acl', '--exit-on-error', '--single-transaction'],
    { env: pgToolEnv(db), stdio: ['pipe', 'ignore', 'pipe'] },
  );
  const exited = pgToolExit(restore, 'pg_restore');
  try {
    await pipeline(archive, restore.stdin);
  } catch (err) {
    restore.kill('SIGKILL');
    await exited;
    throw err;
  }
  const failed = await exited;
  if (failed) throw failed;
}

/**
 * Reads a custom-format archive's table of contents (`pg_restore --list`) while the whole stream
 * is drained, so the stream's own checks (hash, authentication tag) run to the end.
 */
export async function checkArchive(archive: Readable): Promise<void> {
  const list = spawn('pg_restore', ['--list'], {
    env: { PATH: process.env.PATH, LANG: 'C' },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const exited = pgToolExit(list, 'pg_restore --list');
  let open = true;
  list.stdin.on('error', () => (open = false)); // it stops reading once it has the table of contents
  list.stdin.on('close', () => (open = false));
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (!open || list.stdin.write(chunk)) return done();
      const go = () => {
        list.stdin.off('drain', go);
        list.stdin.off('close', go);
        done();
      };
      list.stdin.once('drain', go);
      list.stdin.once('close', go);
    },
    final(done) {
      if (open) list.stdin.end();
      done();
    },
  });
  try {
    await pipeline(archive, sink);
  } catch (err) {
    list.kill('SIGKILL');
    await exited;
    throw err;
  }
  const failed = await exited;
  if (failed) throw failed;
}
