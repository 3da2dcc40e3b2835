import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { parseDatabaseUrl, withAdminConnection } from '../../src/database/data-source-factory';
import { runMigrationSet } from '../../src/database/migration-runner';
import { sql } from '../support/pg';
import { ROOT } from './migration-files';
import { recordMigrationSql } from './migration-sql';
import { lintMigrationSql } from './squawk';
import { ADMIN_URL, databaseUrl, runPrefix } from '../support/test-env';

/**
 * The migration runner honours `transaction = false` on a migration class: the migration's
 * statements then run one by one, outside any transaction, as CREATE/DROP INDEX CONCURRENTLY need.
 */
class Table1799999990000 implements MigrationInterface {
  name = 'Table1799999990000';
  async up(queryRunner: QueryRunner) {
    await queryRunner.query('CREATE TABLE planted (id int PRIMARY KEY, label text)');
  }
  async down() {}
}

/** A build that failed before leaves an INVALID index behind: it is dropped before building again. */
async function buildIndexConcurrently(queryRunner: QueryRunner) {
  await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS planted_label_idx');
  await queryRunner.query('CREATE INDEX CONCURRENTLY planted_label_idx ON planted (label)');
}

class ConcurrentIndex1799999990001 implements MigrationInterface {
  name = 'ConcurrentIndex1799999990001';
  transaction = false as const;
  up = buildIndexConcurrently;
  async down() {}
}

/** The same statements with the runner's default: a transaction per migration. */
class ConcurrentIndexInTransaction1799999990001 implements MigrationInterface {
  name = 'ConcurrentIndexInTransaction1799999990001';
  up = buildIndexConcurrently;
  async down() {}
}

describe('a migration with transaction = false', () => {
  const database = `${runPrefix()}_nontx`;
  const admin = parseDatabaseUrl(ADMIN_URL);
  const target = () => parseDatabaseUrl(databaseUrl(database));

  beforeEach(() => withAdminConnection(admin, (pg) => pg.query(`CREATE DATABASE "${database}"`)));
  afterEach(() =>
    withAdminConnection(admin, (pg) => pg.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)),
  );

  it('builds its index CONCURRENTLY under the migration runner, and is recorded as run', async () => {
    const ran = await runMigrationSet(target(), [Table1799999990000, ConcurrentIndex1799999990001]);
    expect(ran).toEqual(['Table1799999990000', 'ConcurrentIndex1799999990001']);
    const [index] = await sql<{ valid: boolean }>(
      database,
      `SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = 'planted_label_idx'::regclass`,
    );
    expect(index).toEqual({ valid: true });
  });

  it('is what lets it run: the same migration inside the runner transaction fails', async () => {
    await expect(
      runMigrationSet(target(), [Table1799999990000, ConcurrentIndexInTransaction1799999990001]),
    ).rejects.toThrow(/cannot run inside a transaction block/);
  });

  it('is written without the runner transaction in its SQL file, which squawk passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'planted-migration-'));
    try {
      const { files } = await recordMigrationSql([
        {
          folder: 'master',
          migrations: [Table1799999990000, ConcurrentIndex1799999990001],
          database: `${database}_sql`,
          schemas: ['public'],
          dir,
        },
      ]);
      const written = [...files].map(([file, content]) => {
        writeFileSync(resolve(ROOT, file), content);
        return resolve(ROOT, file);
      });
      const concurrent = readFileSync(join(dir, '1799999990001-ConcurrentIndex.sql'), 'utf8');
      expect(concurrent).toContain(
        '-- It runs outside a transaction (`transaction = false` on the migration class).',
      );
      expect(concurrent).not.toContain('START TRANSACTION');
      expect(concurrent).toContain('CREATE INDEX CONCURRENTLY planted_label_idx ON planted (label);');
      expect(lintMigrationSql(written).unexcused).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
