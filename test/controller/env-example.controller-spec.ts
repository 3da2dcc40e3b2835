import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AppConfig } from '../../src/config/app-config';

/**
 * Every setting is read by AppConfig or by a module's `*.settings.ts` class (each property is the
 * environment variable of the same name, declared with its default). `.env.example` must name each
 * one, and nothing else.
 */
const ROOT = join(__dirname, '..', '..');

function settingsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return settingsFiles(path);
    return entry.name.endsWith('.settings.ts') ? [path] : [];
  });
}

/** Setting name → where it is declared. */
function declaredSettings(): Map<string, string> {
  const declared = new Map<string, string>();
  const add = (Settings: new () => object, where: string) => {
    for (const key of Object.keys(new Settings())) declared.set(key, `${Settings.name} (${where})`);
  };
  add(AppConfig, 'src/config/app-config.ts');
  for (const file of settingsFiles(join(ROOT, 'src'))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exports = require(file) as Record<string, unknown>;
    const classes = Object.values(exports).filter(
      (value): value is new () => object => typeof value === 'function' && /Settings$/.test(value.name),
    );
    expect(`${relative(ROOT, file)}: ${classes.length > 0}`).toBe(`${relative(ROOT, file)}: true`);
    for (const Settings of classes) add(Settings, relative(ROOT, file));
  }
  return declared;
}

function exampleSettings(): string[] {
  return readFileSync(join(ROOT, '.env.example'), 'utf8')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line.trim())?.[1])
    .filter((key): key is string => key !== undefined);
}

describe('drift: .env.example', () => {
  const declared = declaredSettings();
  const listed = exampleSettings();

  it('names every setting the service reads', () => {
    const missing = [...declared]
      .filter(([key]) => !listed.includes(key))
      .map(([k, where]) => `${k} of ${where}`);
    expect(missing).toEqual([]);
  });

  it('names no setting the service does not read', () => {
    expect(listed.filter((key) => !declared.has(key))).toEqual([]);
  });

  it('names each setting once', () => {
    expect(listed.filter((key, i) => listed.indexOf(key) !== i)).toEqual([]);
  });

  it('finds the settings classes (the check is not vacuous)', () => {
    expect(declared.size).toBeGreaterThan(40);
    expect(declared.has('JWT_SECRET')).toBe(true);
    expect(declared.has('AUTH_LOCK_THRESHOLD')).toBe(true);
  });
});
