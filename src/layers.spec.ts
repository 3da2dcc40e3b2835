import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

interface Case {
  filePath: string;
  imports: string[];
}

/**
 * Lints import lines as if they stood in `filePath`, with the project's own ESLint config, in a
 * child process (the config is an ES module, which Jest's module sandbox cannot load). Answers, per
 * case, the `line rule` of each layer violation (eslint-plugin-boundaries rules only). `filePath`
 * must be a file of the TypeScript project: the config is type-aware.
 */
function layerViolations(cases: Case[]): string[][] {
  const script = `
    const { ESLint } = require('eslint');
    const cases = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
    (async () => {
      const eslint = new ESLint();
      const out = [];
      for (const c of cases) {
        const code = c.imports.join('\\n') + '\\n';
        const [result] = await eslint.lintText(code, { filePath: c.filePath });
        const fatal = result.messages.find((m) => m.fatal);
        if (fatal) throw new Error(c.filePath + ': ' + fatal.message);
        out.push(result.messages.filter((m) => m.ruleId?.startsWith('boundaries/')).map((m) => m.line + ' ' + m.ruleId));
      }
      process.stdout.write(JSON.stringify(out));
    })().catch((err) => { console.error(err); process.exit(1); });`;
  const output = execFileSync(process.execPath, ['-e', script], {
    cwd: join(__dirname, '..'),
    input: JSON.stringify(cases),
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
