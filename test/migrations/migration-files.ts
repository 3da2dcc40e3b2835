import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where the migrations and their SQL files live, and how a file name maps to a migration name. */
export const ROOT = join(__dirname, '..', '..');
export const MIGRATIONS_DIR = join(ROOT, 'migrations');

/** `AiExchangeRollups1734400000000` → `1734400000000-AiExchangeRollups`: the project's file naming. */
export function migrationFileStem(name: string): string {
  const timestamp = /(\d{13})$/.exec(name)?.[1];
  if (!timestamp) throw new Error(`Migration name without a timestamp: ${name}`);
  return `${timestamp}-${name.slice(0, -timestamp.length)}`;
}

/** The migration a `.sql` file belongs to, by its file name: `1734400000000-X.sql` → `X1734400000000`. */
export function migrationOfSqlFile(file: string): string {
  const match = /(\d{13})-([A-Za-z0-9]+)\.sql$/.exec(file);
  if (!match) throw new Error(`Not a migration SQL file: ${file}`);
  return `${match[2]}${match[1]}`;
}

/** Every checked-in migration SQL file, relative to the repository root. */
export function migrationSqlFiles(): string[] {
  return (['master', 'client'] as const)
    .flatMap((folder) =>
      readdirSync(join(MIGRATIONS_DIR, folder))
        .filter((file) => file.endsWith('.sql'))
        .map((file) => relative(ROOT, join(MIGRATIONS_DIR, folder, file))),
    )
    .sort();
}
