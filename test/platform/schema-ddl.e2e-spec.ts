import { parseDatabaseUrl } from '../../src/database/data-source-factory';
import { quoteIdent } from '../../src/database/identifiers';
import { runSchemaDdl } from '../../src/database/schema-ddl.repository';
import { sql } from '../support/pg';
import { ADMIN_URL, runPrefix } from '../support/test-env';

/** The one place that runs DDL: identifiers checked, one transaction, one schema at a time. */
describe('runSchemaDdl', () => {
  const database = `${runPrefix()}_schema_ddl`;
  const target = { ...parseDatabaseUrl(ADMIN_URL), database };
  const columns = (schema: string, table: string) =>
    sql<{ column_name: string; data_type: string }>(
      database,
      `SELECT column_name, data_type FROM information_schema.columns
        WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
      [schema, table],
    );
  const tableExists = async (schema: string, table: string) =>
    (await sql(database, 'SELECT to_regclass($1) AS t', [`${schema}.${table}`]))[0].t !== null;

  beforeAll(() => sql('postgres', `CREATE DATABASE "${database}"`));

  it('creates, alters and drops a custom table in a sandbox schema and in public', async () => {
    for (const schema of ['sandbox_custom', 'public']) {
      await runSchemaDdl(target, schema, async (ddl) => {
        await ddl.createSchema();
        await ddl.createTable('inspections', [
          { name: 'id', type: 'bigserial', primaryKey: true },
          { name: 'label', type: 'text', nullable: false },
          { name: 'reading', type: 'numeric(12,2)' },
        ]);
      });
      await runSchemaDdl(target, schema, (ddl) =>
        ddl.addColumn('inspections', { name: 'seen_at', type: 'timestamptz' }),
      );
      await runSchemaDdl(target, schema, (ddl) => ddl.dropColumn('inspections', 'reading'));
      expect(await columns(schema, 'inspections')).toEqual([
        { column_name: 'id', data_type: 'bigint' },
        { column_name: 'label', data_type: 'text' },
        { column_name: 'seen_at', data_type: 'timestamp with time zone' },
      ]);
      await runSchemaDdl(target, schema, (ddl) => ddl.dropTable('inspections'));
      expect(await tableExists(schema, 'inspections')).toBe(false);
    }
  });

  it('runs all of it in one transaction: a failure leaves nothing behind', async () => {
    const run = runSchemaDdl(target, 'sandbox_custom', async (ddl) => {
      await ddl.createSchema();
      await ddl.createTable('half_done', [{ name: 'id', type: 'integer' }]);
      await ddl.addColumn('half_done', { name: 'id', type: 'integer' }); // duplicate column
    });
    await expect(run).rejects.toThrow(/already exists/);
    expect(await tableExists('sandbox_custom', 'half_done')).toBe(false);
  });

  it('refuses unsafe identifiers and column types before any SQL', async () => {
    expect(() => quoteIdent('units"; DROP TABLE users; --')).toThrow(/unsafe/);
    expect(() => quoteIdent('Units')).toThrow(/unsafe/);
    await expect(runSchemaDdl(target, 'public; DROP SCHEMA public', async () => undefined)).rejects.toThrow(
      /unsafe/,
    );
    await expect(
      runSchemaDdl(target, 'sandbox_custom', (ddl) =>
        ddl.createTable('t', [{ name: 'a', type: 'text); DROP TABLE x; --' }]),
      ),
    ).rejects.toThrow(/column type/);
    await expect(
      runSchemaDdl(target, 'sandbox_custom', (ddl) => ddl.createTable('t;x', [{ name: 'a', type: 'text' }])),
    ).rejects.toThrow(/unsafe/);
  });

  it('lets one DDL run at a time per schema, and runs in other schemas alongside', async () => {
    const events: string[] = [];
    const hold = (name: string, schema: string, ms: number) =>
      runSchemaDdl(target, schema, async (ddl) => {
        events.push(`${name} start`);
        await ddl.query('SELECT pg_sleep($1)', [ms / 1000]);
        events.push(`${name} end`);
      });
    const first = hold('a', 'sandbox_custom', 400);
    await new Promise((r) => setTimeout(r, 150));
    const same = hold('b', 'sandbox_custom', 10);
    const other = hold('c', 'sandbox_other', 10);
    await Promise.all([first, same, other]);
    expect(events.indexOf('b start')).toBeGreaterThan(events.indexOf('a end'));
    expect(events.indexOf('c end')).toBeLessThan(events.indexOf('a end'));
  });
});
