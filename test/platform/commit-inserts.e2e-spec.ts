import pg from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { insertAtCommit } from '../../src/database/commit-inserts.repository';
import { createDataSource, parseDatabaseUrl } from '../../src/database/data-source-factory';
import { sql } from '../support/pg';
import { ADMIN_URL, runPrefix } from '../support/test-env';

/** Side records (audit entries, outbox events) sent at commit, in one statement, on a real database. */
describe('insertAtCommit', () => {
  const database = `${runPrefix()}_commit_inserts`;
  let dataSource: DataSource;
  const statements: string[] = [];
  const clientQuery = pg.Client.prototype.query;

  const notes = () => sql<{ text: string }>(database, 'SELECT text FROM notes ORDER BY id');
  const texts = async () => (await notes()).map((row) => row.text);
  const note = (m: EntityManager, text: string) => insertAtCommit(m, 'notes', ['text'], [text]);
  const tag = (m: EntityManager, text: string) => insertAtCommit(m, 'tags', ['label', 'n'], [text, 1]);

  beforeAll(async () => {
    await sql('postgres', `CREATE DATABASE "${database}"`);
    await sql(database, 'CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)');
    await sql(database, 'CREATE TABLE tags (id serial PRIMARY KEY, label text NOT NULL, n int NOT NULL)');
    dataSource = createDataSource({ ...parseDatabaseUrl(ADMIN_URL), database }, { entities: [], poolMax: 2 });
    await dataSource.initialize();
    // Every statement the pool's connections send, as PostgreSQL receives them.
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [first] = args as [string | { text: string }];
      statements.push(typeof first === 'string' ? first : first.text);
      return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof clientQuery;
  });
  afterAll(async () => {
    pg.Client.prototype.query = clientQuery;
    await dataSource?.destroy();
  });
  beforeEach(async () => {
    statements.length = 0;
    await sql(database, 'TRUNCATE notes, tags');
  });

  it('sends every buffered row of a transaction in one statement just before COMMIT', async () => {
    await dataSource.transaction(async (m) => {
      await note(m, 'first');
      await tag(m, 'red');
      await note(m, 'second');
      expect(await texts()).toEqual([]); // nothing sent yet
    });
    expect(await texts()).toEqual(['first', 'second']);
    expect(await sql(database, 'SELECT label, n FROM tags')).toEqual([{ label: 'red', n: 1 }]);
    const inserts = statements.filter((s) => s.includes('INSERT'));
    expect(inserts).toHaveLength(1);
    expect(inserts[0]).toMatch(/^WITH w0 AS \(INSERT INTO notes/);
    expect(statements.indexOf(inserts[0])).toBe(statements.indexOf('COMMIT') - 1);
  });

  it('drops buffered rows with a rollback, and a failing row rolls the change back', async () => {
    await expect(
      dataSource.transaction(async (m) => {
        await m.query(`INSERT INTO notes (text) VALUES ('the change')`);
        await note(m, 'side record');
        throw new Error('business rule');
      }),
    ).rejects.toThrow('business rule');
    expect(await texts()).toEqual([]);

    await expect(
      dataSource.transaction(async (m) => {
        await m.query(`INSERT INTO notes (text) VALUES ('the change')`);
        await insertAtCommit(m, 'tags', ['label', 'n'], ['bad', 'not a number']);
      }),
    ).rejects.toThrow(/integer/);
    expect(await texts()).toEqual([]);
  });

  it('keeps the rows of the outer level when a nested savepoint rolls back', async () => {
    await dataSource.transaction(async (outer) => {
      await note(outer, 'outer before');
      await expect(
        outer.transaction(async (inner) => {
          await note(inner, 'inner');
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      await outer.transaction((inner) => note(inner, 'inner committed'));
      await note(outer, 'outer after');
    });
    expect(await texts()).toEqual(['outer before', 'inner committed', 'outer after']);
  });

  it('writes to the schema of each transaction, though the statement is prepared once per connection', async () => {
    await sql(database, 'CREATE SCHEMA IF NOT EXISTS sandbox_x');
    await sql(
      database,
      'CREATE TABLE IF NOT EXISTS sandbox_x.notes (id serial PRIMARY KEY, text text NOT NULL)',
    );
    const inSchema = (schema: string, text: string) =>
      dataSource.transaction(async (m) => {
        await m.query(`SELECT set_config('search_path', $1, true)`, [schema]);
        await note(m, text);
      });
    for (let i = 0; i < 3; i++) {
      await inSchema('public', `public ${i}`);
      await inSchema('sandbox_x, public', `sandbox ${i}`);
    }
    expect(await texts()).toEqual(['public 0', 'public 1', 'public 2']);
    const sandbox = await sql<{ text: string }>(database, 'SELECT text FROM sandbox_x.notes ORDER BY id');
    expect(sandbox.map((row) => row.text)).toEqual(['sandbox 0', 'sandbox 1', 'sandbox 2']);
  });

  it('inserts at once outside a transaction', async () => {
    await note(dataSource.manager, 'now');
    expect(await texts()).toEqual(['now']);
  });
});
