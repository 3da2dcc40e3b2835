import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrationOfSqlFile, migrationSqlFiles } from './migration-files';
import { describeFinding, lintMigrationSql, readExcused } from './squawk';

const HOW =
  'Make the migration safe (docs/conventions.md, "Migrations without downtime"), or write a ' +
  '`-- squawk-ignore <rule>` comment in its SQL after a comment line giving the reason.';

describe('squawk over the migrations', () => {
  it('reports nothing on the checked-in migrations beyond what the excused list names', () => {
    const result = lintMigrationSql(migrationSqlFiles());
    expect({
      unexcused: result.unexcused.map(describeFinding),
      stale: result.stale,
      unexplainedIgnores: result.unexplainedIgnores,
      how: HOW,
    }).toEqual({ unexcused: [], stale: [], unexplainedIgnores: [], how: HOW });
  });

  it('excuses only migrations that exist', () => {
    const existing = new Set(migrationSqlFiles().map(migrationOfSqlFile));
    expect(Object.keys(readExcused()).filter((name) => !existing.has(name))).toEqual([]);
  });
});

describe('squawk over a planted migration', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'planted-migration-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    expect(existsSync(dir)).toBe(false);
  });

  /** Writes `<timestamp>-<name>.sql` into the temporary folder: the SQL a migration would send. */
  const plant = (name: string, sql: string, timestamp = '1799999999999') => {
    const file = join(dir, `${timestamp}-${name}.sql`);
    writeFileSync(file, `${sql}\n`);
    return file;
  };
  const inTransaction = (sql: string) => `START TRANSACTION;\n${sql}\nCOMMIT;`;

  it('fails a CREATE INDEX without CONCURRENTLY on an existing table', () => {
    const file = plant('PlantedIndex', inTransaction('CREATE INDEX users_planted_idx ON users (email);'));
    const { unexcused } = lintMigrationSql([file]);
    expect(unexcused.map((f) => [f.rule, f.line])).toEqual([['require-concurrent-index-creation', 2]]);
    expect(describeFinding(unexcused[0])).toContain('1799999999999-PlantedIndex.sql:2:');
  });

  it('passes CREATE INDEX CONCURRENTLY outside a transaction, and fails it inside one', () => {
    const sql = 'CREATE INDEX CONCURRENTLY users_planted_idx ON users (email);';
    const outside = plant('PlantedConcurrentIndex', sql);
    const inside = plant('PlantedConcurrentIndexInTransaction', inTransaction(sql), '1799999999998');
    const { unexcused } = lintMigrationSql([outside, inside]);
    expect(unexcused.map((f) => [migrationOfSqlFile(f.file), f.rule])).toEqual([
      ['PlantedConcurrentIndexInTransaction1799999999998', 'ban-concurrent-index-creation-in-transaction'],
    ]);
  });

  it('holds every statement that locks or rewrites a table in use, or breaks the previous release, as an error', () => {
    const cases: [string, string][] = [
      ['require-concurrent-index-deletion', 'DROP INDEX users_email_idx;'],
      ['adding-field-with-default', 'ALTER TABLE users ADD COLUMN ref uuid DEFAULT gen_random_uuid();'],
      [
        'adding-field-with-default',
        'ALTER TABLE users ADD COLUMN n int GENERATED ALWAYS AS (id + 1) STORED;',
      ],
      ['adding-required-field', 'ALTER TABLE users ADD COLUMN n int NOT NULL;'],
      ['adding-not-nullable-field', 'ALTER TABLE users ALTER COLUMN username SET NOT NULL;'],
      ['changing-column-type', 'ALTER TABLE users ALTER COLUMN email TYPE text;'],
      ['constraint-missing-not-valid', 'ALTER TABLE users ADD CONSTRAINT users_n_ck CHECK (id > 0);'],
      [
        'disallowed-unique-constraint',
        'ALTER TABLE users ADD CONSTRAINT users_n_uq UNIQUE (email) NOT VALID;',
      ],
      [
        'adding-foreign-key-constraint',
        'ALTER TABLE users ADD CONSTRAINT users_c_fk FOREIGN KEY (company_id) REFERENCES companies (id);',
      ],
      ['renaming-column', 'ALTER TABLE users RENAME COLUMN username TO login;'],
      ['renaming-table', 'ALTER TABLE users RENAME TO accounts;'],
      ['ban-drop-column', 'ALTER TABLE users DROP COLUMN username;'],
      ['ban-drop-table', 'DROP TABLE users;'],
      ['ban-drop-database', 'DROP DATABASE platform;'],
      ['ban-truncate-cascade', 'TRUNCATE users CASCADE;'],
    ];
    const files = cases.map(([, sql], i) =>
      plant(`Planted${i}`, inTransaction(sql), String(1799999999000 + i)),
    );
    const found = lintMigrationSql(files).unexcused.map((f) => [migrationOfSqlFile(f.file), f.rule]);
    for (const [i, [rule]] of cases.entries()) {
      expect(found).toContainEqual([`Planted${i}${1799999999000 + i}`, rule]);
    }
  });

  it('lets nullable and constant-default columns through, and NOT VALID with VALIDATE in a later migration', () => {
    const expand = plant(
      'PlantedExpand',
      inTransaction(
        [
          'ALTER TABLE users ADD COLUMN nickname varchar(100);',
          "ALTER TABLE users ADD COLUMN locale varchar(10) NOT NULL DEFAULT 'en';",
          'ALTER TABLE users ADD CONSTRAINT users_c_fk FOREIGN KEY (company_id) REFERENCES companies (id) NOT VALID;',
        ].join('\n'),
      ),
    );
    const validate = plant(
      'PlantedValidate',
      inTransaction('ALTER TABLE users VALIDATE CONSTRAINT users_c_fk;'),
      '1800000000000',
    );
    expect(lintMigrationSql([expand, validate]).unexcused.map(describeFinding)).toEqual([]);
    const together = plant(
      'PlantedNotValidAndValidate',
      inTransaction(
        [
          'ALTER TABLE users ADD CONSTRAINT users_c_fk FOREIGN KEY (company_id) REFERENCES companies (id) NOT VALID;',
          'ALTER TABLE users VALIDATE CONSTRAINT users_c_fk;',
        ].join('\n'),
      ),
      '1800000000001',
    );
    expect(lintMigrationSql([together]).unexcused.map((f) => f.rule)).toEqual([
      'constraint-missing-not-valid',
    ]);
  });

  it('accepts a squawk-ignore comment only with its reason on the line above', () => {
    const reasoned = plant(
      'PlantedReasonedIgnore',
      inTransaction(
        [
          '-- users_planted_idx covers a column added in this migration: every row is NULL.',
          '-- squawk-ignore require-concurrent-index-creation',
          'CREATE INDEX users_planted_idx ON users (email);',
        ].join('\n'),
      ),
    );
    const bare = plant(
      'PlantedBareIgnore',
      inTransaction(
        [
          '-- squawk-ignore require-concurrent-index-creation',
          'CREATE INDEX users_planted_idx ON users (email);',
        ].join('\n'),
      ),
      '1799999999998',
    );
    const result = lintMigrationSql([reasoned, bare]);
    expect(result.unexcused.map(describeFinding)).toEqual([]);
    expect(result.unexplainedIgnores).toEqual([
      expect.stringContaining('1799999999998-PlantedBareIgnore.sql:2:'),
    ]);
  });

  it('excuses a landed migration only for the findings it lists', () => {
    const landed = 'ObligationDueOrder1734310000000';
    expect(readExcused()[landed].findings).toEqual({ 'require-concurrent-index-creation': 1 });
    const file = plant(
      'ObligationDueOrder',
      inTransaction('CREATE INDEX a_idx ON users (email);\nCREATE INDEX b_idx ON users (username);'),
      '1734310000000',
    );
    const { unexcused } = lintMigrationSql([file]);
    expect(unexcused.map((f) => [f.rule, f.line])).toEqual([['require-concurrent-index-creation', 3]]);
  });
});
