import { Client as PgClient } from 'pg';
import { DbTarget, withAdminConnection } from './data-source-factory';
import { quoteIdent, quoteLiteral } from './identifiers';

/** Column types custom tables may use; anything else is refused. */
const COLUMN_TYPE =
  /^(text|boolean|smallint|integer|bigint|serial|bigserial|real|double precision|date|time|timestamptz|jsonb|uuid|numeric(\(\d{1,3}(, ?\d{1,3})?\))?|varchar\(\d{1,5}\))$/;

/** Advisory-lock class of schema DDL; the second key is the schema's hash. */
const SCHEMA_DDL_LOCK = 7243200;

export interface ColumnDefinition {
  name: string;
  /** One of the allowed types, e.g. `text`, `numeric(12,2)`, `timestamptz`. */
  type: string;
  nullable?: boolean;
  primaryKey?: boolean;
}

function columnSql(column: ColumnDefinition): string {
  const type = column.type.trim().toLowerCase();
  if (!COLUMN_TYPE.test(type)) throw new Error(`Refusing column type: ${column.type}`);
  const constraints = column.primaryKey ? ' PRIMARY KEY' : column.nullable === false ? ' NOT NULL' : '';
  return `${quoteIdent(column.name)} ${type}${constraints}`;
}

/**
 * DDL statements in one schema, issued inside the transaction `runSchemaDdl` opened. Table and
 * column names go through `quoteIdent`; values through parameters.
 */
export class SchemaDdl {
  constructor(
    private readonly pg: PgClient,
    readonly schema: string,
  ) {}

  /** `"schema"."table"`. */
  table(name: string): string {
    return `${quoteIdent(this.schema)}.${quoteIdent(name)}`;
  }

  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const { rows } = await this.pg.query(sql, params);
    return rows as T[];
  }

  async createSchema(): Promise<void> {
    await this.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.schema)}`);
  }

  async dropSchema(): Promise<void> {
    await this.query(`DROP SCHEMA IF EXISTS ${quoteIdent(this.schema)} CASCADE`);
  }

  async createTable(name: string, columns: ColumnDefinition[]): Promise<void> {
    if (!columns.length) throw new Error(`Table ${name} needs at least one column`);
    await this.query(`CREATE TABLE ${this.table(name)} (${columns.map(columnSql).join(', ')})`);
  }

  async addColumn(table: string, column: ColumnDefinition): Promise<void> {
    await this.query(`ALTER TABLE ${this.table(table)} ADD COLUMN ${columnSql(column)}`);
  }

  async dropColumn(table: string, column: string): Promise<void> {
    await this.query(`ALTER TABLE ${this.table(table)} DROP COLUMN ${quoteIdent(column)}`);
  }

  async dropTable(name: string): Promise<void> {
    await this.query(`DROP TABLE IF EXISTS ${this.table(name)}`);
  }

  /** Gives a login role the application's rights on the schema: rows and sequences, no DDL. */
  async grantApplicationRights(role: string): Promise<void> {
    const s = quoteIdent(this.schema);
    const r = quoteIdent(role);
    await this.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
    await this.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${r}`);
    await this.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`);
  }
}

/**
 * Runs `work` as one transaction on a short-lived administrative connection to `target`, holding
 * the schema's DDL advisory lock (so two replicas never alter one schema at once) and with the
 * schema first on the search_path. Rolls everything back when `work` throws.
 */
export async function runSchemaDdl<T>(
  target: DbTarget,
  schema: string,
  work: (ddl: SchemaDdl) => Promise<T>,
): Promise<T> {
  return withAdminConnection(target, (pg) => runSchemaDdlOn(pg, schema, work));
}

/**
 * `runSchemaDdl` on an open administrative connection (a pooled one, say): the transaction, the
 * lock and the search_path (both scoped to the transaction) open in one round trip. When the
 * ROLLBACK itself fails the error says so (`rollbackFailed`), so a pool can discard the connection.
 */
export async function runSchemaDdlOn<T>(
  pg: PgClient,
  schema: string,
  work: (ddl: SchemaDdl) => Promise<T>,
): Promise<T> {
  const quoted = quoteIdent(schema);
  // Both literals come from a checked identifier; the simple protocol runs the three in one trip.
  try {
    await pg.query(
      `BEGIN; SELECT pg_advisory_xact_lock(${SCHEMA_DDL_LOCK}, hashtext(${quoteLiteral(schema)})),
         set_config('search_path', ${quoteLiteral(`${quoted}, public`)}, true)`,
    );
    const result = await work(new SchemaDdl(pg, schema));
    await pg.query('COMMIT');
    return result;
  } catch (err) {
    await pg.query('ROLLBACK').catch(() => {
      if (err && typeof err === 'object') (err as { rollbackFailed?: boolean }).rollbackFailed = true;
    });
    throw err;
  }
}

/**
 * Waits for the schema DDL in flight in the database (any schema's lock of runSchemaDdl) to end;
 * what starts later finds whatever the caller recorded before it called.
 */
export async function awaitSchemaDdl(pg: PgClient): Promise<void> {
  await pg.query(
    `BEGIN; SELECT pg_advisory_xact_lock(${SCHEMA_DDL_LOCK}, hashtext(nspname)) FROM pg_namespace
      WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_%'; COMMIT`,
  );
}
