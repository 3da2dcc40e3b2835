import { createHash } from 'node:crypto';
import { EntityManager, EntitySubscriberInterface, EventSubscriber, QueryRunner } from 'typeorm';
import type { TransactionCommitEvent } from 'typeorm/subscriber/event/TransactionCommitEvent';
import type { TransactionRollbackEvent } from 'typeorm/subscriber/event/TransactionRollbackEvent';
import type { TransactionStartEvent } from 'typeorm/subscriber/event/TransactionStartEvent';

interface PendingRow {
  table: string;
  columns: readonly string[];
  values: unknown[];
}

const pending = new WeakMap<QueryRunner, PendingRow[]>();
/** Far below PostgreSQL's 65,535 bind parameters per statement. */
const MAX_BUFFERED_PARAMS = 10_000;

/**
 * Inserts a side record of a change (an audit entry, an outbox event) as part of the transaction
 * `manager` belongs to, sent just before COMMIT together with the other side records of that
 * transaction: one round trip for all of them, instead of one each. The rows still commit or roll
 * back with the change. Outside a transaction the row is inserted at once.
 *
 * `table` and `columns` are identifiers written by our own code, never user input.
 */
export async function insertAtCommit(
  manager: EntityManager,
  table: string,
  columns: readonly string[],
  values: unknown[],
): Promise<void> {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) {
    const [text, params] = insertStatement([{ table, columns, values }]);
    await manager.query(text, params);
    return;
  }
  const rows = pending.get(runner) ?? [];
  rows.push({ table, columns, values });
  pending.set(runner, rows);
  if (rows.reduce((n, row) => n + row.values.length, 0) > MAX_BUFFERED_PARAMS) await flush(runner);
}

interface PgConnection {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<unknown>;
}

async function flush(runner: QueryRunner): Promise<void> {
  const rows = pending.get(runner);
  if (!rows?.length) return;
  pending.delete(runner);
  const [text, params] = insertStatement(rows);
  // A named statement is parsed and planned once per connection instead of on every commit.
  // PostgreSQL re-plans it by itself when the (sandbox) search_path differs from the last use.
  // Through a transaction pooler the next commit may run on another server connection, where the
  // name is unknown (node-postgres skips the Parse of a name it prepared before): unnamed there.
  const connection = (await runner.connect()) as PgConnection;
  const name = unnamedStatements.has(runner.connection) ? undefined : statementName(text);
  await connection.query({ ...(name && { name }), text, values: params });
}

const unnamedStatements = new WeakSet<object>();

/** Side records of this DataSource's transactions go as unnamed statements (it uses a pooler). */
export function sendUnnamedStatements(dataSource: object): void {
  unnamedStatements.add(dataSource);
}

const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `commit_inserts_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    if (statementNames.size < 1000) statementNames.set(text, name);
  }
  return name;
}

/**
 * One statement for all rows: an INSERT per table (and column list), all but the last as
 * data-modifying CTEs, which PostgreSQL runs whether or not the main statement reads them.
 */
export function insertStatement(rows: PendingRow[]): [string, unknown[]] {
  const groups = new Map<string, PendingRow[]>();
  for (const row of rows) {
    const key = `${row.table}(${row.columns.join(',')})`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  const params: unknown[] = [];
  const inserts = [...groups.values()].map((group) => {
    const tuples = group.map((row) => `(${row.values.map((value) => `$${params.push(value)}`).join(', ')})`);
    return `INSERT INTO ${group[0].table} (${group[0].columns.join(', ')}) VALUES ${tuples.join(', ')}`;
  });
  const last = inserts.pop()!;
  const ctes = inserts.map((insert, i) => `w${i} AS (${insert})`);
  return [ctes.length ? `WITH ${ctes.join(', ')} ${last}` : last, params];
}

/**
 * Sends the pending rows before COMMIT (or before a savepoint's release), and before a nested
 * transaction opens its savepoint, so that rolling back to that savepoint only drops the rows
 * buffered since. A rollback drops what is still buffered.
 */
@EventSubscriber()
export class CommitInsertsSubscriber implements EntitySubscriberInterface {
  beforeTransactionStart(event: TransactionStartEvent) {
    return flush(event.queryRunner);
  }

  beforeTransactionCommit(event: TransactionCommitEvent) {
    return flush(event.queryRunner);
  }

  beforeTransactionRollback(event: TransactionRollbackEvent) {
    pending.delete(event.queryRunner);
  }
}
