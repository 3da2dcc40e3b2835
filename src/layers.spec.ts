import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

interface Case {
  filePath: string;
  /** Lines of code linted as if they stood in `filePath` (import lines, or any statement). */
  imports: string[];
}

/**
 * Lints lines of code as if they stood in `filePath`, with the project's own ESLint config, in a
 * child process (the config is an ES module, which Jest's module sandbox cannot load). Answers, per
 * case, the `line rule` of each report of the rules whose id starts with `rulePrefix` (the layer
 * rules of eslint-plugin-boundaries unless told). `filePath` must be a file of the TypeScript
 * project: the config is type-aware.
 */
function layerViolations(cases: Case[], rulePrefix = 'boundaries/'): string[][] {
  const script = `
    const { ESLint } = require('eslint');
    const { cases, rulePrefix } = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
    (async () => {
      const eslint = new ESLint();
      const out = [];
      for (const c of cases) {
        const code = c.imports.join('\\n') + '\\n';
        const [result] = await eslint.lintText(code, { filePath: c.filePath });
        const fatal = result.messages.find((m) => m.fatal);
        if (fatal) throw new Error(c.filePath + ': ' + fatal.message);
        out.push(result.messages.filter((m) => m.ruleId?.startsWith(rulePrefix)).map((m) => m.line + ' ' + m.ruleId));
      }
      process.stdout.write(JSON.stringify(out));
    })().catch((err) => { console.error(err); process.exit(1); });`;
  const output = execFileSync(process.execPath, ['-e', script], {
    cwd: join(__dirname, '..'),
    input: JSON.stringify({ cases, rulePrefix }),
    encoding: 'utf8',
  });
  return JSON.parse(output) as string[][];
}

const LAYERS = 'boundaries/element-types';
const PUBLIC_FILE = 'boundaries/entry-point';

const CASES = {
  kernel: {
    filePath: 'src/common/pagination/pagination.ts',
    imports: [
      "import { AppConfig } from '../../config/app-config';",
      "import { TenantDatabase } from '../../tenancy/tenant-database';",
      "import { UnitsModule } from '../../units/units.module';",
      "import { Unit } from '../../units';",
      "import { AppModule } from '../../app.module';",
    ],
  },
  feature: {
    filePath: 'src/work-orders/work-orders.service.ts',
    imports: [
      "import { Unit } from '../units';",
      "import { UnitRecordsService } from '../units/index';",
      "import { UnitsService } from '../units/units.service';",
      "import { Unit as UnitEntity } from '../units/entities/unit.entity';",
      "export { UnitsModule } from '../units/units.module';",
      "import { WorkOrdersModule } from './work-orders.module';",
      "import { AppConfig } from '../config/app-config';",
      "import { AppModule } from '../app.module';",
    ],
  },
  migration: {
    filePath: 'migrations/client/1734000000000-OutagesCompliance.ts',
    imports: [
      "import { SECURITY_PREDICATE } from './1733100000000-AuditTrail';",
      "import { isSandboxSchema } from '../schema-scope';",
      "import { AppConfig } from '../../src/config/app-config';",
      "import { Unit } from '../../src/units';",
    ],
  },
  root: {
    filePath: 'src/app.module.ts',
    imports: [
      "import { UnitsModule } from './units/units.module';",
      "import { AppConfig } from './config/app-config';",
    ],
  },
  testFile: {
    filePath: 'test/operations/processes.ts',
    imports: ["import { UnitsService } from '../../src/units/units.service';"],
  },
} satisfies Record<string, Case>;

describe('layers (eslint-plugin-boundaries in eslint.layers.mjs)', () => {
  let violations: Record<keyof typeof CASES, string[]>;

  beforeAll(() => {
    const names = Object.keys(CASES) as (keyof typeof CASES)[];
    const found = layerViolations(names.map((name) => CASES[name]));
    violations = Object.fromEntries(names.map((name, i) => [name, found[i]])) as typeof violations;
  });

  it('the kernel imports the kernel, never a feature (not even its public file) nor the root', () => {
    expect(violations.kernel).toEqual([`3 ${LAYERS}`, `4 ${LAYERS}`, `5 ${LAYERS}`]);
  });

  it("a feature imports another feature's public file, not its internals; its own files and the kernel freely", () => {
    expect(violations.feature).toEqual([
      `3 ${PUBLIC_FILE}`,
      `4 ${PUBLIC_FILE}`,
      `5 ${PUBLIC_FILE}`,
      `8 ${LAYERS}`,
    ]);
  });

  it('a migration imports other migrations, nothing from src/', () => {
    expect(violations.migration).toEqual([`3 ${LAYERS}`, `4 ${LAYERS}`]);
  });

  it('the root composes anything; test files are not checked', () => {
    expect(violations.root).toEqual([]);
    expect(violations.testFile).toEqual([]);
  });
});

const STATEMENTS = 'repositories/statements-in-repositories';

/** The same calls planted in a service, in a repository beside it, and in the migration runner. */
const plantedStatements = (filePath: string): Case => ({
  filePath,
  imports: [
    "import { DataSource, EntityManager, Repository } from 'typeorm';",
    "import { Pool } from 'pg';",
    "import { TenantDatabase } from './tenant-database';",
    "import { Client as Unit } from './entities/client.entity';",
    'export async function planted(ds: DataSource, m: EntityManager, units: Repository<Unit>, pool: Pool, db: TenantDatabase) {',
    "  await db.query('SELECT 1');",
    '  ds.createQueryBuilder();',
    '  m.getRepository(Unit);',
    '  await units.findOneBy({ id: 1 });',
    '  await m.save(Unit, {});',
    "  await pool.query('SELECT 1');",
    '  await ds.manager.count(Unit);',
    '  await units.exist({ where: { id: 1 } });',
    '  new Map<number, number>().delete(1);',
    '  [1].find((n) => n > 0);',
    '}',
  ],
});

const STATEMENT_CASES = {
  service: plantedStatements('src/tenancy/client-registry.ts'),
  repository: plantedStatements('src/tenancy/clients.repository.ts'),
  migrationRunner: plantedStatements('src/database/migration-runner.ts'),
} satisfies Record<string, Case>;

describe('statements in repositories (eslint.repositories.mjs)', () => {
  let violations: Record<keyof typeof STATEMENT_CASES, string[]>;

  beforeAll(() => {
    const names = Object.keys(STATEMENT_CASES) as (keyof typeof STATEMENT_CASES)[];
    const found = layerViolations(
      names.map((name) => STATEMENT_CASES[name]),
      'repositories/',
    );
    violations = Object.fromEntries(names.map((name, i) => [name, found[i]])) as typeof violations;
  });

  it('refuses .query, .createQueryBuilder, .getRepository and the statement methods of TypeORM and pg handles in a service', () => {
    // Lines 6–8 by name whatever the receiver; 9–13 by the type of the receiver; a Map or an array is no database.
    expect(violations.service).toEqual([6, 7, 8, 9, 10, 11, 12, 13].map((line) => `${line} ${STATEMENTS}`));
  });

  it('allows the same calls in a *.repository.ts file and in the migration runner', () => {
    expect(violations.repository).toEqual([]);
    expect(violations.migrationRunner).toEqual([]);
  });
});

/** Kernel folder → the kernel folders its files import (type imports included), from the source files. */
function kernelImportGraph(): Map<string, Set<string>> {
  const src = __dirname;
  const kernel = kernelFolders();
  const graph = new Map(kernel.map((folder) => [folder, new Set<string>()]));
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        const from = relative(src, path).split(sep)[0];
        for (const [, specifier] of readFileSync(path, 'utf8').matchAll(
          /(?:from|import\(|require\()\s*'(\.[^']*)'/g,
        )) {
          const to = relative(src, resolve(dirname(path), specifier)).split(sep)[0];
          if (to !== from && graph.has(to)) graph.get(from)!.add(to);
        }
      }
    }
  };
  for (const folder of kernel) visit(join(src, folder));
  return graph;
}

/** KERNEL_FOLDERS of eslint.layers.mjs, read from its text (an ES module Jest cannot import). */
function kernelFolders(): string[] {
  const text = readFileSync(join(__dirname, '..', 'eslint.layers.mjs'), 'utf8');
  const list = /KERNEL_FOLDERS = \[([^\]]*)\]/.exec(text)![1];
  return [...list.matchAll(/'([^']+)'/g)].map(([, folder]) => folder);
}

/** One cycle of the graph as `a → b → a`, or null. */
function findCycle(graph: Map<string, Set<string>>): string | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node].join(' → ');
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

describe('the kernel has an inner order (docs/conventions.md, "Layers")', () => {
  it('the imports between kernel folders form no cycle', () => {
    const graph = kernelImportGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(findCycle(graph)).toBeNull();
  });

  it('finds a planted cycle', () => {
    const graph = kernelImportGraph();
    graph.get('config')!.add('tenancy');
    expect(findCycle(graph)).toMatch(/config → tenancy → /);
  });
});
