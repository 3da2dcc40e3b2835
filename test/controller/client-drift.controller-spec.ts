import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The typed client (clients/typescript) is generated from the checked-in openapi.json by
 * openapi-typescript: its schema.d.ts must be what the generator makes of the document today.
 */
const ROOT = join(__dirname, '..', '..');
const SCHEMA = join(ROOT, 'clients', 'typescript', 'schema.d.ts');
const CLI = join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');

describe('drift: clients/typescript/schema.d.ts', () => {
  it('is what openapi-typescript generates from openapi.json', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLI, 'openapi.json', '--redocly', 'clients/typescript/redocly.yaml'],
      {
        cwd: ROOT,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const checkedIn = readFileSync(SCHEMA, 'utf8');
    if (checkedIn !== stdout) {
      throw new Error(
        'clients/typescript/schema.d.ts is out of date with openapi.json. ' +
          'Regenerate it with `npm run client:generate` and commit it.',
      );
    }
  }, 120000);
});
