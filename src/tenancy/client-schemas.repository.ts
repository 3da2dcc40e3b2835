import { Injectable } from '@nestjs/common';
import type { Client as PgClient } from 'pg';
import type { DataSource } from 'typeorm';
import { quoteIdent } from '../database/identifiers';
import { SchemaDdl } from '../database/schema-ddl.repository';
import { SqlExample, SqlNotRun } from '../database/sql-example';

/** SQLSTATE of a statement on a table that does not exist. */
const MISSING_TABLE = '42P01';

const OVER_ADMIN_LOGIN = "runs over an administrative connection to a client's database";

/**
 * The schemas of a client's database as platform administration sees them (production `public`
 * and the sandbox schemas): their names, migration state, rights and the copy of production rows
 * into a new sandbox.
 */
@Injectable()
export class ClientSchemasRepository {
  /** The sandbox schemas the database holds, from its `sandboxes` table. */
  @SqlExample((c) => [c.manager.connection])
  async sandboxSchemaNames(dataSource: DataSource): Promise<string[]> {
    const rows: { schema_name: string }[] = await dataSource.query(
      'SELECT schema_name FROM public.sandboxes',
    );
    return rows.map((r) => r.schema_name);
  }

  /** Production's newest recorded migration; null before the first one (or the table). */
  @SqlNotRun(OVER_ADMIN_LOGIN)
  async newestProductionMigration(admin: PgClient): Promise<string | null> {
    const newest = await admin
      .query<{ name: string }>('SELECT name FROM public.migrations ORDER BY timestamp DESC, id DESC LIMIT 1')
      .catch((err: { code?: string }) => {
        if (err.code === MISSING_TABLE) return { rows: [] };
        throw err;
      });
    return newest.rows[0]?.name ?? null;
  }

  /** `public` and the schemas whose name is LIKE `sandboxLike`. */
  @SqlNotRun(OVER_ADMIN_LOGIN)
  async schemaNames(admin: PgClient, sandboxLike: string): Promise<string[]> {
    const { rows } = await admin.query<{ nspname: string }>(
      `SELECT nspname FROM pg_namespace WHERE nspname = 'public' OR nspname LIKE $1`,
      [sandboxLike],
    );
    return rows.map((r) => r.nspname);
  }

  /** The audit trail is append-only for the application's login role. */
  @SqlNotRun('changes rights, inside a schema DDL transaction')
  async revokeAuditWrites(ddl: SchemaDdl, role: string): Promise<void> {
    await ddl.query(`REVOKE UPDATE, DELETE, TRUNCATE ON ${ddl.table('audit_logs')} FROM ${quoteIdent(role)}`);
  }

  /**
   * Copies production rows of every per-schema table into the schema of `ddl`: not the audit trail, nor
   * the progress of background migrations (the sandbox's own rows are walked by its own runs).
   */
  @SqlNotRun('writes a sandbox schema, inside its DDL transaction')
  async copyProductionInto(ddl: SchemaDdl, schema: string): Promise<void> {
    const tables = await ddl.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name NOT IN ('migrations', 'audit_logs', 'background_migrations')`,
      [schema],
    );
    await ddl.query(`SET LOCAL session_replication_role = replica`); // copy in any order, no FK/trigger checks
    for (const { table_name: table } of tables) {
      const columns = await ddl.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2
         AND is_generated = 'NEVER' ORDER BY ordinal_position`,
        [schema, table],
      );
      const list = columns.map((c) => quoteIdent(c.column_name)).join(', ');
      await ddl.query(
        `INSERT INTO ${ddl.table(table)} (${list}) SELECT ${list} FROM public.${quoteIdent(table)}`,
      );
      const serials = await ddl.query<{ column_name: string; seq: string | null }>(
        `SELECT column_name, pg_get_serial_sequence($1, column_name) AS seq FROM information_schema.columns
          WHERE table_schema = $2 AND table_name = $3 AND column_default LIKE 'nextval%'`,
        [`${schema}.${table}`, schema, table],
      );
      for (const { column_name: column, seq } of serials) {
        if (!seq) continue;
        await ddl.query(
          `SELECT setval($1, GREATEST(COALESCE((SELECT max(${quoteIdent(column)}) FROM ${ddl.table(table)}), 0), 1))`,
          [seq],
        );
      }
    }
  }
}
