import type { EntityManager } from 'typeorm';

/**
 * What the SQL snapshot script (`npm run sql:write`, checked by `test/sql/sql-snapshots.e2e-spec.ts`)
 * hands to an example that needs a manager: one in a transaction that the script rolls back.
 */
export interface SqlExampleContext {
  manager: EntityManager;
}

export type SqlExampleArgs = readonly unknown[] | ((context: SqlExampleContext) => readonly unknown[]);

export interface SqlExampleEntry {
  method: string;
  /** The arguments the script calls the method with; absent when `notRun` is set. */
  args?: SqlExampleArgs;
  /** Why the script does not call this method (it is listed in the SQL file with the reason). */
  notRun?: string;
}

const examples = new Map<object, SqlExampleEntry[]>();

function remember(target: object, entry: SqlExampleEntry) {
  const constructor = (target as { constructor: object }).constructor;
  const list = examples.get(constructor) ?? [];
  list.push(entry);
  examples.set(constructor, list);
}

/**
 * The arguments the SQL snapshot script calls this repository method with. Every public method of a
 * `*.repository.ts` class carries one or more examples (one per shape of SQL it can send) or
 * `@SqlNotRun`. Use fixed values: the SQL written to the snapshot must not change from run to run.
 */
export function SqlExample(args: SqlExampleArgs = []): MethodDecorator {
  return (target, key) => remember(target, { method: String(key), args });
}

/** A method the snapshot script must not call (it creates databases, waits on a lock, ...). */
export function SqlNotRun(reason: string): MethodDecorator {
  return (target, key) => remember(target, { method: String(key), notRun: reason });
}

/**
 * The examples declared on a repository class in source order. Decorators run member by member from
 * the top, and bottom-up within one member: each member's run is turned back.
 */
export function sqlExamplesOf(repositoryClass: object): SqlExampleEntry[] {
  const runs: SqlExampleEntry[][] = [];
  for (const entry of examples.get(repositoryClass) ?? []) {
    const last = runs[runs.length - 1];
    if (last && last[0].method === entry.method) last.push(entry);
    else runs.push([entry]);
  }
  return runs.flatMap((run) => run.reverse());
}
