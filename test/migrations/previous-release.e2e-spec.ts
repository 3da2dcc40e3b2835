import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrationSqlFiles } from './migration-files';
import { checkDropsAndRenames, commitInClone, readPreviousRelease, removalsIn } from './previous-release';

describe('drops and renames against the previous release', () => {
  it('holds a commit sha, and no new migration removes what that commit still names', () => {
    const previous = readPreviousRelease();
    const result = checkDropsAndRenames(migrationSqlFiles(), previous);
    expect(result.failures).toEqual([]);
    if (!commitInClone(previous)) console.warn(result.notes.join('\n'));
  });

  it('reads the drops and renames of columns and tables from a migration SQL', () => {
    const sql = [
      '-- ALTER TABLE users DROP COLUMN commented_out;',
      'ALTER TABLE users DROP COLUMN IF EXISTS phone, DROP COLUMN "Nick", ALTER COLUMN email DROP NOT NULL;',
      'ALTER TABLE public.users ALTER COLUMN email DROP DEFAULT, DROP CONSTRAINT users_ck;',
      'ALTER TABLE users RENAME COLUMN first_name TO given_name;',
      'ALTER TABLE users RENAME last_name TO family_name;',
      'ALTER TABLE users RENAME CONSTRAINT a TO b;',
      'ALTER TABLE api_tokens RENAME TO tokens;',
      'DROP TABLE IF EXISTS webhooks, public.webhook_deliveries;',
    ].join('\n');
    expect(removalsIn('x.sql', sql).map((r) => `${r.kind} ${r.table}.${r.name}`)).toEqual([
      'drops column users.phone',
      'drops column users.Nick',
      'renames column users.first_name',
      'renames column users.last_name',
      'renames table api_tokens.api_tokens',
      'drops table webhooks.webhooks',
      'drops table webhook_deliveries.webhook_deliveries',
    ]);
  });
});

describe('a planted migration that drops or renames', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'planted-migration-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    expect(existsSync(dir)).toBe(false);
  });
  const plant = (stem: string, sql: string) => {
    const file = join(dir, `${stem}.sql`);
    writeFileSync(file, `START TRANSACTION;\n${sql}\nCOMMIT;\n`);
    return file;
  };

  it('fails a new migration that drops a column the previous release still reads, naming the file', () => {
    const file = plant('1799999999999-DropFirstName', 'ALTER TABLE users DROP COLUMN first_name;');
    const { failures } = checkDropsAndRenames([file]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(
      /^1799999999999-DropFirstName\.sql drops column users\.first_name, which the previous release still names: src\/\S+\.ts:\d+/,
    );
  });

  it('fails a new migration that renames a column the previous release still reads', () => {
    const file = plant('1799999999999-RenameUsername', 'ALTER TABLE users RENAME COLUMN username TO login;');
    expect(checkDropsAndRenames([file]).failures).toEqual([
      expect.stringMatching(/renames column users\.username, which the previous release still names: src\//),
    ]);
  });

  it('passes a drop of a column no code of the previous release names', () => {
    const file = plant(
      '1799999999999-DropUnread',
      'ALTER TABLE users DROP COLUMN planted_column_nobody_reads;',
    );
    expect(checkDropsAndRenames([file]).failures).toEqual([]);
  });

  it('leaves alone a migration the previous release already had', () => {
    const file = plant('1733000000000-Identity', 'ALTER TABLE users DROP COLUMN first_name;');
    expect(checkDropsAndRenames([file]).failures).toEqual([]);
  });

  it('says so and searches the current src/ when the commit is not in the clone', () => {
    const missing = 'f'.repeat(40);
    expect(commitInClone(missing)).toBe(false);
    const file = plant('1733000000000-Identity', 'ALTER TABLE users DROP COLUMN first_name;');
    const result = checkDropsAndRenames([file], missing);
    expect(result.notes).toEqual([expect.stringContaining('is not in this clone')]);
    expect(result.failures).toEqual([expect.stringMatching(/drops column users\.first_name, .*src\//)]);
  });
});
