import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrationSqlFiles, ROOT } from './migration-files';
import { MigrationSqlRun, recordMigrationSql } from './migration-sql';

/**
 * Every migration has a checked-in `<timestamp>-<Name>.sql` beside it holding the SQL its `up` sends.
 * `npm run migrations:sql` (SQL_WRITE=1) rewrites the files instead of comparing.
 */
const HOW = 'Regenerate them with `npm run migrations:sql`, review the diff and commit the .sql files.';

describe('SQL of the migrations', () => {
  let run: MigrationSqlRun;

  beforeAll(async () => {
    run = await recordMigrationSql();
  }, 60_000);

  it('every registered migration has its source file beside the name it records', () => {
    expect(run.problems).toEqual([]);
  });

  it('the checked-in SQL files are what the migrations send', () => {
    const orphans = migrationSqlFiles().filter((file) => !run.files.has(file));
    if (process.env.SQL_WRITE) {
      for (const [file, content] of run.files) writeFileSync(join(ROOT, file), content);
      for (const file of orphans) unlinkSync(join(ROOT, file));
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
