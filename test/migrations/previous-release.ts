import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { migrationOfSqlFile, ROOT } from './migration-files';

/**
 * Contract only after the previous release stopped reading: a migration that is not in the previous
 * release (release/previous) may drop or rename a column or a table only when that release's src/
 * names it nowhere, since that release's code runs against the migrated database during the rollout.
 * Names are searched as whole words, in snake_case and camelCase (the naming strategy maps one to the
 * other), in every src/ file but the specs. Without the commit in the clone (a shallow clone), every
 * migration is taken as new and the current src/ is searched instead.
 */
export const PREVIOUS_RELEASE_FILE = join(ROOT, 'release', 'previous');

export interface Removal {
  /** The migration SQL file that sends it. */
  file: string;
  kind: 'drops column' | 'renames column' | 'drops table' | 'renames table';
  table: string;
  name: string;
}

export interface ReleaseCheck {
  /** One line per removal the previous release's code still names, with the files that name it. */
  failures: string[];
  /** How the check ran: the commit searched, or why it fell back to the current src/. */
  notes: string[];
}

export function readPreviousRelease(file = PREVIOUS_RELEASE_FILE): string {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (lines.length !== 1 || !/^[0-9a-f]{40}$/.test(lines[0])) {
    throw new Error(`${file} must hold one full commit sha (besides # comments)`);
  }
  return lines[0];
}

function git(args: string[]) {
  return spawnSync('git', ['-C', ROOT, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

export function commitInClone(sha: string): boolean {
  return git(['cat-file', '-e', `${sha}^{commit}`]).status === 0;
}

/** The migrations (by name) present at `sha`. */
function migrationsAt(sha: string): Set<string> {
  const listed = git(['ls-tree', '-r', '--name-only', sha, '--', 'migrations/master', 'migrations/client']);
  return new Set(
    listed.stdout
      .split('\n')
      .filter((path) => /\/\d{13}-[A-Za-z0-9]+\.ts$/.test(path))
      .map((path) => migrationOfSqlFile(path.replace(/\.ts$/, '.sql'))),
  );
}

const IDENT = String.raw`("[^"]+"|[A-Za-z_][A-Za-z0-9_$]*)`;
const NOT_A_COLUMN = new Set(['constraint', 'default', 'not', 'expression', 'identity', 'column', 'to']);
const unquote = (name: string) => (name.startsWith('"') ? name.slice(1, -1) : name.toLowerCase());
const bare = (table: string) => unquote(table.split('.').pop()!);

/** The columns and tables a migration's SQL drops or renames (comments left out). */
export function removalsIn(file: string, sql: string): Removal[] {
  const text = sql.replace(/--[^\n]*/g, '');
  const removals: Removal[] = [];
  const alter = new RegExp(
    String.raw`ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?((?:${IDENT}\.)?${IDENT})([^;]*)`,
    'gi',
  );
  for (const [, tableRef, , , actions] of text.matchAll(alter)) {
    const table = bare(tableRef);
    for (const [, name] of actions.matchAll(
      new RegExp(String.raw`\bDROP\s+(?:COLUMN\s+)?(?:IF\s+EXISTS\s+)?${IDENT}`, 'gi'),
    )) {
      if (!NOT_A_COLUMN.has(name.toLowerCase()))
        removals.push({ file, kind: 'drops column', table, name: unquote(name) });
    }
    for (const [, name] of actions.matchAll(
      new RegExp(String.raw`\bRENAME\s+(?:COLUMN\s+)?${IDENT}\s+TO\b`, 'gi'),
    )) {
      if (!NOT_A_COLUMN.has(name.toLowerCase()))
        removals.push({ file, kind: 'renames column', table, name: unquote(name) });
    }
    if (new RegExp(String.raw`^\s*RENAME\s+TO\b`, 'i').test(actions)) {
      removals.push({ file, kind: 'renames table', table, name: table });
    }
  }
  const drop = new RegExp(
    String.raw`DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?((?:${IDENT}\.)?${IDENT}(?:\s*,\s*(?:${IDENT}\.)?${IDENT})*)`,
    'gi',
  );
  for (const [, list] of text.matchAll(drop)) {
    for (const tableRef of list.split(',')) {
      const table = bare(tableRef.trim());
      removals.push({ file, kind: 'drops table', table, name: table });
    }
  }
  const seen = new Set<string>();
  return removals.filter((r) => {
    const key = `${r.kind} ${r.table} ${r.name}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** `file:line` of every src/ file (specs aside) that names `name`, at `sha` or in the work tree. */
function namedIn(name: string, sha: string | null): string[] {
  const words = [...new Set([name, camel(name)])].flatMap((w) => ['-e', w]);
  const where = ['--', 'src/', ':(exclude)*.spec.ts'];
  const found = sha
    ? git(['grep', '-n', '-w', ...words, sha, ...where])
    : git(['grep', '-n', '-w', '--untracked', ...words, ...where]);
  if (found.status === 1) return [];
  if (found.status !== 0) throw new Error(`git grep failed: ${found.stderr}`);
  return found.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(`${sha}:`, '').split(':').slice(0, 2).join(':'));
}

/** Fails every new migration's drop or rename of a name the previous release's src/ still uses. */
export function checkDropsAndRenames(files: string[], previousRelease = readPreviousRelease()): ReleaseCheck {
  const notes: string[] = [];
  const available = commitInClone(previousRelease);
  let landed = new Set<string>();
  if (available) {
    landed = migrationsAt(previousRelease);
    notes.push(`previous release ${previousRelease}: ${landed.size} migrations, its src/ searched`);
  } else {
    notes.push(
      `previous release ${previousRelease} is not in this clone (a shallow clone?): every migration is taken as new and the current src/ is searched instead`,
    );
  }
  const failures = files
    .filter((file) => !landed.has(migrationOfSqlFile(file)))
    .flatMap((file) => removalsIn(basename(file), readFileSync(resolve(ROOT, file), 'utf8')))
    .flatMap((removal) => {
      const users = namedIn(removal.name, available ? previousRelease : null);
      if (!users.length) return [];
      const what = removal.kind.endsWith('column') ? `${removal.table}.${removal.name}` : removal.table;
      const shown = users.slice(0, 5).join(', ') + (users.length > 5 ? ` and ${users.length - 5} more` : '');
      return [`${removal.file} ${removal.kind} ${what}, which the previous release still names: ${shown}`];
    });
  return { failures, notes };
}
