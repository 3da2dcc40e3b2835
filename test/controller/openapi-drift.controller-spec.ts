import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setupSwagger } from '../../src/app.factory';
import { bootControllerApp, ControllerApp } from '../support/controller-app';

/**
 * The checked-in openapi.json is the API's published contract: it must be what the controllers
 * generate. `npm run openapi` (OPENAPI_WRITE=1) rewrites it instead of comparing.
 */
const FILE = join(__dirname, '..', '..', 'openapi.json');
const HOW = 'Regenerate it with `npm run openapi`, review the diff and commit openapi.json.';

type Document = { paths?: Record<string, Record<string, unknown>>; components?: { schemas?: object } };

/** A short account of what differs, operation by operation, so the failure says where to look. */
function differences(checkedIn: Document, generated: Document): string[] {
  const operations = (doc: Document) =>
    new Map(
      Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, JSON.stringify(op)]),
      ),
    );
  const before = operations(checkedIn);
  const after = operations(generated);
  const lines: string[] = [];
  for (const [key, op] of after) {
    if (!before.has(key)) lines.push(`new operation: ${key}`);
    else if (before.get(key) !== op) lines.push(`changed operation: ${key}`);
  }
  for (const key of before.keys()) if (!after.has(key)) lines.push(`removed operation: ${key}`);
  const schemas = (doc: Document) => (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const [a, b] = [schemas(checkedIn), schemas(generated)];
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (JSON.stringify(a[name]) !== JSON.stringify(b[name])) lines.push(`changed schema: ${name}`);
  }
  return lines.length ? lines : ['(order or document-level fields)'];
}

describe('drift: openapi.json', () => {
  let t: ControllerApp;

  beforeAll(async () => {
    t = await bootControllerApp({ beforeInit: setupSwagger });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('matches the document the controllers generate', async () => {
    const res = await fetch(`${t.url}/api/docs-json`);
    expect(res.status).toBe(200);
    const generated = `${JSON.stringify(await res.json(), null, 2)}\n`;
    if (process.env.OPENAPI_WRITE === '1') {
      writeFileSync(FILE, generated);
      return;
    }
    let checkedIn: string;
    try {
      checkedIn = readFileSync(FILE, 'utf8');
    } catch {
      throw new Error(`openapi.json is missing at the repository root. ${HOW}`);
    }
    if (checkedIn !== generated) {
      const detail = differences(JSON.parse(checkedIn), JSON.parse(generated)).slice(0, 30);
      throw new Error(`openapi.json is out of date:\n  ${detail.join('\n  ')}\n${HOW}`);
    }
  });
});
