import { spawn } from 'node:child_process';
import { DbTarget } from '../database/data-source-factory';
import { pgToolConnectionArgs, pgToolEnv, pgToolExit } from '../database/pg-tool-process';

/**
 * Copies one database into another (empty) one: `pg_dump -Fc` piped into `pg_restore` as one
 * transaction. Ownership is not copied (the target's administrative login owns what it restores);
 * grants are, so the client's login role (which must exist on the target) keeps its rights. The
 * dump is not compressed: it only crosses a pipe, and compressing it took most of the copy's time.
 * `schemaOnly` copies the definitions without rows (an online move's first step); publications
 * and subscriptions are never copied.
 */
export async function copyDatabase(
  source: DbTarget,
  target: DbTarget,
  options: { schemaOnly?: boolean } = {},
): Promise<void> {
  const dump = spawn(
    'pg_dump',
    [
      ...pgToolConnectionArgs(source),
      '--format=custom',
      '--compress=0',
      '--no-owner',
      '--no-publications',
      '--no-subscriptions',
      ...(options.schemaOnly ? ['--schema-only'] : []),
    ],
    { env: pgToolEnv(source), stdio: ['ignore', 'pipe', 'pipe'] },
  );
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
