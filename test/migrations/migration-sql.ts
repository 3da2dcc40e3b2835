import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MigrationInterface } from 'typeorm';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { MASTER_MIGRATIONS } from '../../migrations/master';
import {
  createDataSource,
  parseDatabaseUrl,
  withAdminConnection,
} from '../../src/database/data-source-factory';
import { migrationName } from '../../src/database/migration-runner';
import { recordStatements, SentStatement, tidy } from '../sql/sent-statements';
import { MIGRATIONS_DIR, migrationFileStem, ROOT } from './migration-files';
import { ADMIN_URL, databaseUrl, runPrefix } from '../support/test-env';

/**
 * The SQL each migration sends, written beside it as `<timestamp>-<Name>.sql`: every migration's `up`
 * runs, in order, on a scratch database of its set (the master set alone on an empty database, the
 * client set on an empty database in `public`, then again in a sandbox schema), and every statement
 * it sends is recorded at the pg driver. A reviewer sees a migration's SQL in the diff, squawk lints
 * these files (squawk.ts), and the e2e test fails when they differ from what the migrations send.
 */
type MigrationClass = new () => MigrationInterface;

/** A sandbox schema name as the client set sees one (see migrations/schema-scope.ts). */
const SANDBOX = 'sandbox_sql';

export interface MigrationSet {
  folder: 'master' | 'client';
  migrations: MigrationClass[];
  /** The scratch database it runs on, created and dropped here. */
  database: string;
  schemas: string[];
  /** Where the migrations' source files are: migrations/<folder> unless said. */
  dir?: string;
}

export interface MigrationSqlRun {
  /** File path (relative to the repository root) → its content. */
  files: Map<string, string>;
  /** Migrations whose source file could not be found beside the name it records. */
  problems: string[];
}

function header(name: string, set: MigrationSet, inTransaction: boolean): string[] {
  const where = set.folder === 'master' ? 'an empty master database' : 'an empty client database';
  return [
    `-- The SQL migration ${name} sends (its \`up\`), run after the migrations before it on ${where}.`,
    '-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.',
    inTransaction
      ? '-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).'
      : '-- It runs outside a transaction (`transaction = false` on the migration class).',
  ];
}

/**
 * A statement's text without the indentation of the migration source: a text that starts on its own
 * line (a template literal opened by a line break) keeps its lines' relative indentation.
 */
function sqlText(text: string): string {
  const statement = /^[ \t]*\n/.test(text) ? dedent(text) : tidy(text);
  return statement.replace(/;\s*$/, '');
}

function dedent(text: string): string {
  const lines = text.split('\n').map((line) => line.trimEnd());
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const cut = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(cut)).join('\n');
}

function statementLines(sent: SentStatement[]): string[] {
  if (!sent.length) return ['-- (no statement)'];
  return sent.map(({ text, values }) => {
    const params = values.map((v, i) => `$${i + 1} = ${JSON.stringify(v)}`).join(', ');
    return `${sqlText(text)};${params ? `\n-- parameters: ${params}` : ''}`;
  });
}

async function recordSet(set: MigrationSet): Promise<Map<string, Map<string, SentStatement[]>>> {
  const target = parseDatabaseUrl(databaseUrl(set.database));
  const bySchema = new Map<string, Map<string, SentStatement[]>>();
  for (const schema of set.schemas) {
    const dataSource = createDataSource(target, { entities: [], poolMax: 1, schema });
    await dataSource.initialize();
    const runner = dataSource.createQueryRunner();
    const sent = new Map<string, SentStatement[]>();
    try {
      if (schema !== 'public') await runner.query(`CREATE SCHEMA ${schema}`);
      for (const migrationClass of set.migrations) {
        const migration = new migrationClass();
        const statements: SentStatement[] = [];
        const inTransaction = migration.transaction !== false;
        if (inTransaction) await runner.startTransaction();
        await recordStatements(statements, () => migration.up(runner));
        if (inTransaction) await runner.commitTransaction();
        sent.set(migrationName(migrationClass), statements);
      }
    } finally {
      await runner.release();
      await dataSource.destroy();
    }
    bySchema.set(schema, sent);
  }
  return bySchema;
}

function renderFile(
  set: MigrationSet,
  migrationClass: MigrationClass,
  recorded: Map<string, Map<string, SentStatement[]>>,
) {
  const name = migrationName(migrationClass);
  const inTransaction = new migrationClass().transaction !== false;
  const wrap = (lines: string[]) => (inTransaction ? ['START TRANSACTION;', ...lines, 'COMMIT;'] : lines);
  const [publicSql, ...others] = set.schemas.map((schema) =>
    statementLines(recorded.get(schema)!.get(name)!),
  );
  const blocks = [header(name, set, inTransaction).join('\n'), wrap(publicSql).join('\n')];
  if (set.folder === 'client') {
    const sandboxSql = others[0];
    const same = sandboxSql.join('\n') === publicSql.join('\n');
    blocks[1] = `-- In schema public:\n${blocks[1]}`;
    blocks.push(
      same
        ? '-- In every sandbox_* schema: the same statements.'
        : `-- In every sandbox_* schema (here ${SANDBOX}, search_path ${SANDBOX}, public):\n${wrap(sandboxSql).join('\n')}`,
    );
  }
  return `${blocks.join('\n\n')}\n`;
}

/** The project's two sets, each on a scratch database of this test run. */
export function projectMigrationSets(): MigrationSet[] {
  const prefix = `${runPrefix()}_migsql`;
  return [
    { folder: 'master', migrations: MASTER_MIGRATIONS, database: `${prefix}_master`, schemas: ['public'] },
    {
      folder: 'client',
      migrations: CLIENT_MIGRATIONS,
      database: `${prefix}_client`,
      schemas: ['public', SANDBOX],
    },
  ];
}

/** Runs every migration's `up` on scratch databases and renders the SQL file of each. */
export async function recordMigrationSql(sets = projectMigrationSets()): Promise<MigrationSqlRun> {
  const run: MigrationSqlRun = { files: new Map(), problems: [] };
  const admin = parseDatabaseUrl(ADMIN_URL);
  for (const set of sets) {
    await withAdminConnection(admin, (pg) => pg.query(`CREATE DATABASE "${set.database}"`));
    try {
      const recorded = await recordSet(set);
      for (const migrationClass of set.migrations) {
        const dir = set.dir ?? join(MIGRATIONS_DIR, set.folder);
        const stem = join(dir, migrationFileStem(migrationName(migrationClass)));
        if (!existsSync(`${stem}.ts`))
          run.problems.push(`${migrationName(migrationClass)}: no ${relative(ROOT, stem)}.ts`);
        run.files.set(`${relative(ROOT, stem)}.sql`, renderFile(set, migrationClass, recorded));
      }
    } finally {
      await withAdminConnection(admin, (pg) =>
        pg.query(`DROP DATABASE IF EXISTS "${set.database}" WITH (FORCE)`),
      );
    }
  }
  return run;
}
