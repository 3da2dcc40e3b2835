import { Client as PgClient } from 'pg';
import { parseDatabaseUrl } from '../../src/database/data-source-factory';
import { SmtpSink } from '../support/smtp-sink';
import { ADMIN_URL } from '../support/test-env';
import { bootApp, provisionClient, TestApp } from '../support/test-app';

/** A client's database role connects to its own database only: not the master, not another client's. */
describe('client database roles', () => {
  let sink: SmtpSink;
  let t: TestApp;
  const name = (identifier: string) => `${t.masterDatabase}_${identifier}`;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { SMTP_URL: sink.url } });
    await provisionClient(t, sink, 'dbca');
    await provisionClient(t, sink, 'dbcb');
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  /** Connects as `role` (the test server trusts local logins, so only CONNECT decides) and runs one query. */
  const connectAs = async (role: string, database: string) => {
    const { host, port } = parseDatabaseUrl(ADMIN_URL);
    const pg = new PgClient({ host, port, user: role, database, password: 'unused' });
    try {
      await pg.connect();
      const { rows } = await pg.query<{ db: string }>('SELECT current_database() AS db');
      return rows[0].db;
    } finally {
      await pg.end().catch(() => undefined);
    }
  };

  it('lets a client role connect to its own database', async () => {
    expect(await connectAs(name('dbca'), name('dbca'))).toBe(name('dbca'));
  });

  it('refuses a client role on the master database', async () => {
    await expect(connectAs(name('dbca'), t.masterDatabase)).rejects.toMatchObject({ code: '42501' });
  });

  it("refuses a client role on another client's database", async () => {
    await expect(connectAs(name('dbca'), name('dbcb'))).rejects.toMatchObject({ code: '42501' });
    await expect(connectAs(name('dbcb'), name('dbca'))).rejects.toMatchObject({ code: '42501' });
  });

  it('still lets the application itself work on the master', async () => {
    expect((await t.http().get('/health')).status).toBeLessThan(500);
  });
});
