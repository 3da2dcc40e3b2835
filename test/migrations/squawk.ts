import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { MIGRATIONS_DIR, migrationOfSqlFile, ROOT } from './migration-files';

/**
 * squawk over the migrations' SQL files: its settings are migrations/squawk.toml (every rule it does
 * not exclude is an error), landed migrations are excused by name and rule in
 * migrations/squawk-excused.json, and a new migration's exception is a `-- squawk-ignore <rule>`
 * comment in its own SQL, after a comment line giving the reason.
 */
export const SQUAWK_CONFIG = join(MIGRATIONS_DIR, 'squawk.toml');
export const EXCUSED_FILE = join(MIGRATIONS_DIR, 'squawk-excused.json');
const SQUAWK = join(ROOT, 'node_modules', '.bin', 'squawk');

export interface SquawkFinding {
  file: string;
  line: number;
  column: number;
  rule: string;
  message: string;
}

interface SquawkJson {
  file: string;
  line: number;
  column: number;
  rule_name: string;
  message: string;
}

export type Excused = Record<string, { findings: Record<string, number>; reason: string }>;

export interface LintResult {
  /** Findings no entry of the excused list covers: each one fails the check. */
  unexcused: SquawkFinding[];
  /** Excused findings squawk no longer reports: the list must say what is true. */
  stale: string[];
  /** `squawk-ignore` comments without a reason on the comment line before them. */
  unexplainedIgnores: string[];
}

/** A path relative to the repository when inside it, else absolute. */
function shown(file: string): string {
  const path = relative(ROOT, resolve(ROOT, file));
  return path.startsWith('..') ? resolve(ROOT, file) : path;
}

export function readExcused(file = EXCUSED_FILE): Excused {
  return (JSON.parse(readFileSync(file, 'utf8')) as { migrations: Excused }).migrations;
}

/** squawk's findings over `files`, with 1-based lines and columns and paths relative to the repository. */
export function runSquawk(files: string[]): SquawkFinding[] {
  if (!files.length) return [];
  const result = spawnSync(SQUAWK, ['--config', SQUAWK_CONFIG, '--reporter', 'json', ...files], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  let parsed: SquawkJson[];
  try {
    parsed = JSON.parse(result.stdout) as SquawkJson[];
  } catch {
    throw new Error(
      `squawk did not answer in JSON (exit ${result.status}): ${result.stderr || result.stdout}`,
    );
  }
  return parsed.map((f) => ({
    file: shown(f.file),
    line: f.line + 1,
    column: f.column + 1,
    rule: f.rule_name,
    message: f.message,
  }));
}

/** `-- squawk-ignore` comments whose previous line is not a comment saying why. */
export function unexplainedIgnores(files: string[]): string[] {
  return files.flatMap((file) => {
    const lines = readFileSync(resolve(ROOT, file), 'utf8').split('\n');
    return lines.flatMap((line, i) => {
      if (!/^\s*--\s*squawk-ignore/.test(line)) return [];
      const before = lines[i - 1] ?? '';
      const reasoned =
        /^\s*--/.test(before) && !/squawk-ignore/.test(before) && before.replace(/^\s*--/, '').trim();
      return reasoned ? [] : [`${shown(file)}:${i + 1}: ${line.trim()} (no reason above it)`];
    });
  });
}

/** Lints `files` and sets the findings against the excused list. */
export function lintMigrationSql(files: string[], excused: Excused = readExcused()): LintResult {
  const findings = runSquawk(files);
  const seen = new Map<string, number>();
  const unexcused = findings.filter((finding) => {
    const migration = migrationOfSqlFile(finding.file);
    const key = `${migration} ${finding.rule}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    return seen.get(key)! > (excused[migration]?.findings[finding.rule] ?? 0);
  });
  const linted = new Set(files.map(migrationOfSqlFile));
  const stale = Object.entries(excused)
    .filter(([migration]) => linted.has(migration))
    .flatMap(([migration, { findings: counts }]) =>
      Object.entries(counts)
        .filter(([rule, count]) => (seen.get(`${migration} ${rule}`) ?? 0) < count)
        .map(
          ([rule, count]) =>
            `${migration}: ${count} × ${rule} excused, ${seen.get(`${migration} ${rule}`) ?? 0} found`,
        ),
    );
  return { unexcused, stale, unexplainedIgnores: unexplainedIgnores(files) };
}

export function describeFinding(f: SquawkFinding): string {
  return `${f.file}:${f.line}:${f.column}: ${f.rule}: ${f.message}`;
}
