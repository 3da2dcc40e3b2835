import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

interface Case {
  filePath: string;
  code: string;
}

/**
 * Lints snippets with the project's own ESLint config through ESLint's Node API (`lintText` with a
 * file path), in a child process: the config is an ES module, which Jest's module sandbox cannot
 * load. Answers the lines each snippet breaks `no-restricted-imports` on.
 */
function restrictedLines(cases: Case[]): number[][] {
  const script = `
    const { ESLint } = require('eslint');
    const cases = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
    (async () => {
      const eslint = new ESLint();
      const out = [];
      for (const c of cases) {
        const [result] = await eslint.lintText(c.code, { filePath: c.filePath });
        out.push(result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.line));
      }
      process.stdout.write(JSON.stringify(out));
    })().catch((err) => { console.error(err); process.exit(1); });`;
  const output = execFileSync(process.execPath, ['-e', script], {
    cwd: join(__dirname, '..', '..'),
    input: JSON.stringify(cases),
    encoding: 'utf8',
  });
  return JSON.parse(output) as number[][];
}

describe('tenancy boundary (ESLint no-restricted-imports)', () => {
  it('fails feature and test files that import the pool registry or the master DataSource; allows the facades', () => {
    const [feature, testFile, facade, inside] = restrictedLines([
      {
        filePath: 'src/work-orders/work-orders.service.ts',
        code: [
          "import { TenantDataSources } from '../tenancy/tenant-data-sources';",
          "import { MASTER_DATA_SOURCE } from '../database/master-data-source';",
          'export const leak = [TenantDataSources, MASTER_DATA_SOURCE];',
          '',
        ].join('\n'),
      },
      {
        filePath: 'test/platform/tenancy.e2e-spec.ts',
        code: "import { TenantDataSources } from '../../src/tenancy/tenant-data-sources';\nexport const leak = TenantDataSources;\n",
      },
      {
        filePath: 'src/work-orders/work-orders.service.ts',
        code: "import { TenantDatabase } from '../tenancy/tenant-database';\nexport const ok = TenantDatabase;\n",
      },
      {
        filePath: 'src/tenancy/tenant-pools.ts',
        code: "import { TenantDataSources } from './tenant-data-sources';\nexport const ok = TenantDataSources;\n",
      },
    ]);
    expect(feature).toEqual([1, 2]);
    expect(testFile).toEqual([1]);
    expect(facade).toEqual([]);
    expect(inside).toEqual([]);
  });
});
