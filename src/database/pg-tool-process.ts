import { ChildProcess } from 'node:child_process';
import { DbTarget } from './data-source-factory';

/** The tail of a tool's error output kept for the server log. */
const STDERR_KEPT = 4000;

/** A PostgreSQL client tool (pg_dump, pg_restore) that could not run or did not exit with 0. */
export class PgToolError extends Error {}

/** The arguments that point pg_dump or pg_restore at one database; never a password prompt. */
export function pgToolConnectionArgs(db: DbTarget): string[] {
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

/** The environment of a tool: PATH, a fixed locale and the password, nothing else of ours. */
export function pgToolEnv(db: DbTarget): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LANG: 'C' };
  if (db.password) env.PGPASSWORD = db.password;
  return env;
}

/** Resolves with a PgToolError (its output's tail in the message) unless the tool exited with 0. */
export function pgToolExit(child: ChildProcess, tool: string): Promise<PgToolError | null> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT);
  });
  return new Promise((resolve) => {
    child.once('error', (err) => resolve(new PgToolError(`${tool} could not run: ${err.message}`)));
    child.once('close', (code, signal) =>
      resolve(code === 0 ? null : new PgToolError(`${tool} exited with ${code ?? signal}: ${stderr.trim()}`)),
    );
  });
}
