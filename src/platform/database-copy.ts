import { spawn } from 'node:child_process';
import { DbTarget } from '../database/data-source-factory';
import { pgToolConnectionArgs, pgToolEnv, pgToolExit } from '../database/pg-tool-process';

/**
 * Copies one database into another (empty) one: `pg_dump -Fc` piped into `pg_restore` as one
 * transaction. Ownership is not copied (the target's administrative login owns what it restores);
 * grants are, so the client's login role (which must exist on the target) keeps its rights.
 */
export async function copyDatabase(source: DbTarget, target: DbTarget): Promise<void> {
  const dump = spawn('pg_dump', [...pgToolConnectionArgs(source), '--format=custom', '--no-owner'], {
    env: pgToolEnv(source),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const restore = spawn(
    'pg_restore',
    [...pgToolConnectionArgs(target), '--no-owner', '--exit-on-error', '--single-transaction'],
    { env: pgToolEnv(target), stdio: ['pipe', 'ignore', 'pipe'] },
  );
  dump.stdout.pipe(restore.stdin);
  restore.stdin.on('error', () => undefined); // pg_restore ended first: its own exit tells why
  const [dumped, restored] = await Promise.all([
    pgToolExit(dump, 'pg_dump'),
    pgToolExit(restore, 'pg_restore'),
  ]);
  if (dumped) throw dumped;
  if (restored) throw restored;
}
