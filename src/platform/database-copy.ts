import { spawn } from 'node:child_process';
import { DbTarget } from '../database/data-source-factory';

/** The tail of a tool's error output kept for the server log. */
const STDERR_KEPT = 4000;

/**
 * Copies one database into another (empty) one: `pg_dump -Fc` piped into `pg_restore` as one
 * transaction. Ownership is not copied (the target's administrative login owns what it restores);
 * grants are, so the client's login role (which must exist on the target) keeps its rights.
 */
export async function copyDatabase(source: DbTarget, target: DbTarget): Promise<void> {
  const dump = spawn('pg_dump', [...connectionArgs(source), '--format=custom', '--no-owner'], {
    env: toolEnv(source),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const restore = spawn(
    'pg_restore',
    [...connectionArgs(target), '--no-owner', '--exit-on-error', '--single-transaction'],
    { env: toolEnv(target), stdio: ['pipe', 'ignore', 'pipe'] },
  );
  dump.stdout.pipe(restore.stdin);
  restore.stdin.on('error', () => undefined); // pg_restore ended first: its own exit tells why
  const [dumped, restored] = await Promise.all([finished(dump, 'pg_dump'), finished(restore, 'pg_restore')]);
  if (dumped) throw dumped;
  if (restored) throw restored;
}

function connectionArgs(db: DbTarget): string[] {
  return [
    '--host',
    db.host,
    '--port',
    String(db.port),
    '--username',
    db.username,
    '--dbname',
    db.database,
    '--no-password',
  ];
}

function toolEnv(db: DbTarget): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LANG: 'C' };
  if (db.password) env.PGPASSWORD = db.password;
  return env;
}

/** Resolves with an error (its output's tail in the message) unless the tool exited with 0. */
function finished(child: ReturnType<typeof spawn>, tool: string): Promise<Error | null> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT);
  });
  return new Promise((resolve) => {
    child.once('error', (err) => resolve(new Error(`${tool} could not run: ${err.message}`)));
    child.once('close', (code) =>
      resolve(code === 0 ? null : new DatabaseCopyError(`${tool} exited with ${code}: ${stderr.trim()}`)),
    );
  });
}

export class DatabaseCopyError extends Error {}
