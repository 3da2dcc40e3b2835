import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { MASTER_MIGRATIONS } from '../../migrations/master';
import { migrationName } from '../../src/database/migration-runner';
import { MigratedVersions } from '../../src/platform/migrated-versions';
import { runMigrationJob } from '../support/migration-jobs';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, provisionClient, superAdminToken, TestApp } from '../support/test-app';

const VERSION = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;
const NEWEST_MASTER = migrationName(MASTER_MIGRATIONS[MASTER_MIGRATIONS.length - 1]);
const NEWEST_CLIENT = migrationName(CLIENT_MIGRATIONS[CLIENT_MIGRATIONS.length - 1]);
const OLDER_CLIENT = migrationName(CLIENT_MIGRATIONS[CLIENT_MIGRATIONS.length - 2]);

/** GET /management/info and the app_info gauge: which release runs, and where the migrations stand. */
describe('release info', () => {
  let sink: SmtpSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  it('answers without a credential: version, and master and client migrations against the code', async () => {
    const res = await t.http().get('/management/info');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: VERSION,
      migrations: {
        master: { applied: NEWEST_MASTER, expected: NEWEST_MASTER },
        client: { expected: NEWEST_CLIENT, clients: { current: 0, behind: 0, unknown: 0 } },
      },
    });
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('counts clients by their recorded migration version, asking no client database', async () => {
    const root = await superAdminToken(t);
    const current = await provisionClient(t, sink, 'info-current');
    const behind = await provisionClient(t, sink, 'info-behind');
    await provisionClient(t, sink, 'info-unknown');
    const job = await runMigrationJob(t, root, `/api/platform/clients/${current.id}/migrate`);
    expect(job.clients).toEqual([expect.objectContaining({ identifier: 'info-current', status: 'done' })]);
    // As a migration job of an older release would have left it.
    await t.app.get(MigratedVersions, { strict: false }).record(behind.identifier, OLDER_CLIENT);

    await new Promise((r) => setTimeout(r, 2100)); // past the reuse of the previous answer
    const res = await t.http().get('/management/info');
    expect(res.status).toBe(200);
    expect(res.body.migrations.client).toEqual({
      expected: NEWEST_CLIENT,
      clients: { current: 1, behind: 1, unknown: 1 },
    });
  });

  it('exports one app_info series naming the release and the newest migrations of the code', async () => {
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(200);
    const series = res.text.split('\n').filter((line) => line.startsWith('app_info'));
    expect(series).toEqual([
      `app_info{version="${VERSION}",master_migration="${NEWEST_MASTER}",client_migration="${NEWEST_CLIENT}"} 1`,
    ]);
  });
});
