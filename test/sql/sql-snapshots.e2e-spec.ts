import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootApp, TestApp } from '../support/test-app';
import { orphanSnapshots, ROOT, snapshotRepositories, SnapshotRun } from './sql-snapshots';

/**
 * Every `*.repository.ts` has a checked-in `<name>.repository.sql` holding the SQL its methods send.
 * `npm run sql:write` (SQL_WRITE=1) rewrites the files instead of comparing.
 */
const HOW = 'Regenerate them with `npm run sql:write`, review the diff and commit the .sql files.';

describe('SQL snapshots of the repositories', () => {
  let t: TestApp;
  let run: SnapshotRun;

  beforeAll(async () => {
    t = await bootApp();
    run = await snapshotRepositories(t.app);
  }, 120_000);
  afterAll(() => t?.close());

  it('every public repository method declares an example and every repository is a provider', () => {
    expect(run.problems).toEqual([]);
  });

  it('the checked-in SQL files are what the repositories send', () => {
    const orphans = orphanSnapshots(run.files);
    if (process.env.SQL_WRITE) {
      for (const [file, content] of run.files) writeFileSync(join(ROOT, file), content);
      for (const file of orphans) unlinkSync(join(ROOT, file));
      if (run.errors.length) console.warn(`Examples that ended in an error:\n${run.errors.join('\n')}`);
      return;
    }
    const differing = [...run.files]
      .filter(
        ([file, content]) =>
          !existsSync(join(ROOT, file)) || readFileSync(join(ROOT, file), 'utf8') !== content,
      )
      .map(([file]) => file);
    expect({ differing, orphans, how: HOW }).toEqual({ differing: [], orphans: [], how: HOW });
  });
});
