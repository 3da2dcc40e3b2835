import { INestApplication, InjectionToken } from '@nestjs/common';
import { NestContainer } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { sqlExamplesOf, SqlExampleEntry } from '../../src/database/sql-example';
import { recordStatements, SentStatement, tidy } from './sent-statements';
import { TenantDatabase } from '../../src/tenancy/tenant-database';
import { MASTER_CLIENT, PRODUCTION_SCHEMA, tenantContext } from '../../src/tenancy/tenant-context';

/**
 * The SQL each repository sends, written beside it as `<name>.repository.sql`: every public method
 * is called with the arguments of its `@SqlExample` decorators, inside the tenant context of the
 * master client of a scratch deployment, and the text of every statement it sends is recorded at
 * the pg driver. A reviewer sees a query change in the diff; the e2e test fails when the checked-in
 * files differ from what the code sends.
 */
export const ROOT = join(__dirname, '..', '..');
const SRC = join(ROOT, 'src');
const HEADER = [
  '-- The SQL this repository sends, one block per example of each method (see @SqlExample).',
  '-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.',
];

export function repositoryFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return repositoryFiles(path);
      return entry.name.endsWith('.repository.ts') ? [path] : [];
    })
    .sort();
}

/** Public instance methods of each exported `*Repository` class, read from the source. */
function publicMethods(file: string): Map<string, string[]> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const classes = new Map<string, string[]>();
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement) || !statement.name?.text.endsWith('Repository')) continue;
    const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    const methods = statement.members
      .filter((member): member is ts.MethodDeclaration => ts.isMethodDeclaration(member))
      .filter((method) => {
        const hidden = [
          ts.SyntaxKind.PrivateKeyword,
          ts.SyntaxKind.ProtectedKeyword,
          ts.SyntaxKind.StaticKeyword,
        ];
        return !method.modifiers?.some((m) => hidden.includes(m.kind)) && ts.isIdentifier(method.name);
      })
      .map((method) => (method.name as ts.Identifier).text);
    classes.set(statement.name.text, methods);
  }
  return classes;
}

class Rollback extends Error {}

export interface SnapshotRun {
  /** File path (relative to the repository root) → its content. */
  files: Map<string, string>;
  /** Repository methods without an example, classes Nest does not know: the run's own failures. */
  problems: string[];
  /** Examples that ended in an error (the statements sent before it are still recorded). */
  errors: string[];
}

async function runExample(
  app: INestApplication,
  instance: Instance,
  entry: SqlExampleEntry,
): Promise<{ statements: string[]; error?: string }> {
  const statements: SentStatement[] = [];
  const call = (args: readonly unknown[]) =>
    recordStatements(statements, async () => instance[entry.method](...args));
  const store = { requestId: randomUUID(), client: MASTER_CLIENT, schema: PRODUCTION_SCHEMA };
  try {
    await tenantContext.run(store, async () => {
      if (typeof entry.args !== 'function') return call(entry.args ?? []);
      const build = entry.args;
      await app
        .get(TenantDatabase)
        .transaction(async (manager) => {
          await call(build({ manager }));
          throw new Rollback();
        })
        .catch((e: unknown) => {
          if (!(e instanceof Rollback)) throw e;
        });
    });
    return { statements: statements.map((s) => s.text) };
  } catch (e) {
    return { statements: statements.map((s) => s.text), error: e instanceof Error ? e.message : String(e) };
  }
}

type Instance = Record<string, (...args: unknown[]) => unknown>;

/** The instance Nest made of a class, looked up without `app.get` (which ends the process when absent). */
function providerInstance(app: INestApplication, providerClass: object): Instance | undefined {
  const { container } = app as unknown as { container: NestContainer };
  for (const module of container.getModules().values()) {
    const wrapper = module.providers.get(providerClass as InjectionToken);
    if (wrapper?.instance) return wrapper.instance as Instance;
  }
  return undefined;
}

export async function snapshotRepositories(app: INestApplication): Promise<SnapshotRun> {
  const run: SnapshotRun = { files: new Map(), problems: [], errors: [] };
  // The first statement on a fresh pool may bring the pool's own set-up: send it before recording.
  await tenantContext.run({ requestId: 'warm-up', client: MASTER_CLIENT, schema: PRODUCTION_SCHEMA }, () =>
    app.get(TenantDatabase).query('SELECT 1'),
  );
  for (const file of repositoryFiles()) {
    const module = (await import(file)) as Record<string, unknown>;
    const blocks: string[] = [];
    for (const [className, methods] of publicMethods(file)) {
      const repositoryClass = module[className] as (new (...args: never[]) => unknown) | undefined;
      if (!repositoryClass) continue;
      const examples = sqlExamplesOf(repositoryClass);
      const missing = methods.filter((m) => !examples.some((e) => e.method === m));
      for (const method of missing)
        run.problems.push(`${className}.${method} has no @SqlExample or @SqlNotRun`);
      const instance = providerInstance(app, repositoryClass);
      if (!instance) {
        run.problems.push(`${className} is not a provider of any module`);
        continue;
      }
      for (const entry of examples) {
        const ofMethod = examples.filter((e) => e.method === entry.method);
        const label = `${className}.${entry.method}${ofMethod.length > 1 ? ` #${ofMethod.indexOf(entry) + 1}` : ''}`;
        if (entry.notRun !== undefined) {
          blocks.push(`-- ${label}: not run (${entry.notRun})`);
          continue;
        }
        const { statements, error } = await runExample(app, instance, entry);
        if (error) run.errors.push(`${label}: ${error}`);
        const sent = statements.length ? statements.map((s) => `${tidy(s)};`) : ['-- (no statement)'];
        const ended = error ? ['-- (the example ended in an error here)'] : [];
        blocks.push([`-- ${label}`, ...sent, ...ended].join('\n'));
      }
    }
    const sqlFile = relative(ROOT, file).replace(/\.ts$/, '.sql');
    run.files.set(sqlFile, [...HEADER, '', blocks.join('\n\n'), ''].join('\n'));
  }
  return run;
}

/** Checked-in `.repository.sql` files with no repository beside them any more. */
export function orphanSnapshots(expected: Map<string, string>, dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return orphanSnapshots(expected, path);
    const rel = relative(ROOT, path);
    return entry.name.endsWith('.repository.sql') && !expected.has(rel) ? [rel] : [];
  });
}
