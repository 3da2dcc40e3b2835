import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { sleep } from './helpers';

const SLOT_SECONDS = 3;

/**
 * The schedule on two replicas of one deployment: every active client backed up once per slot
 * (not once per replica), and retention deleting old backups but each client's newest COMPLETED one.
 */
describe('scheduled backups and retention', () => {
  const sink = new SmtpSink();
  let dir: string;
  let a: TestApp;
  let b: TestApp;
  let acme: ProvisionedClient;
  let beta: ProvisionedClient;

  const env = () => ({
    SMTP_URL: sink.url,
    BACKUP_DIR: dir,
    BACKUP_SCHEDULE: `*/${SLOT_SECONDS} * * * * *`,
    BACKUP_SPREAD_SECONDS: '1',
    BACKUP_RETENTION_DAYS: '30',
  });
  /** A backup row made `days` ago, with an object in the store. */
  const oldBackup = async (clientId: number, status: string, days: number) => {
    const [row] = await sql<{ id: number; object_key: string }>(
      a.masterDatabase,
      `INSERT INTO backups (client_id, kind, status, object_key, key_id, size_bytes, sha256, started_at, finished_at, created_at)
       VALUES ($1, 'SCHEDULED', $2, 'clients/' || $1::int || '/old-' || gen_random_uuid() || '.pgdump.enc', 'old', 1,
               repeat('0', 64), now() - make_interval(days => $3), now() - make_interval(days => $3),
               now() - make_interval(days => $3))
       RETURNING id, object_key`,
      [clientId, status, days],
    );
    const path = join(dir, row.object_key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, 'old');
    return { id: row.id, path };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'backup-schedule-'));
    await sink.start();
    a = await bootApp({ env: env() });
    b = await bootApp({ masterDatabase: a.masterDatabase, env: env() });
    acme = await provisionClient(a, sink, 'acme');
    beta = await provisionClient(a, sink, 'beta');
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await sink.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('backs up every active client once per slot across replicas and keeps the newest completed one', async () => {
    const acmeOldest = await oldBackup(acme.id, 'COMPLETED', 40);
    const acmeOld = await oldBackup(acme.id, 'COMPLETED', 35);
    const acmeFailed = await oldBackup(acme.id, 'FAILED', 40);
    const acmeRecent = await oldBackup(acme.id, 'COMPLETED', 2);
    const betaOnly = await oldBackup(beta.id, 'COMPLETED', 40);
    // beta's scheduled backups fail from now on: its 40-day-old backup stays its newest completed one.
    await sql(a.masterDatabase, `DROP DATABASE "${clientDatabase(a.masterDatabase, 'beta')}" WITH (FORCE)`);
    // Slots that began before both clients were active are left out.
    const since = Math.floor(Date.now() / 1000 / SLOT_SECONDS);

    await sleep(4.5 * SLOT_SECONDS * 1000);
    const rows = await sql<{ client_id: number; status: string; slot: string }>(
      a.masterDatabase,
      `SELECT client_id, status, floor(extract(epoch FROM created_at) / ${SLOT_SECONDS})::text AS slot
         FROM backups WHERE kind = 'SCHEDULED' AND key_id <> 'old'
          AND floor(extract(epoch FROM created_at) / ${SLOT_SECONDS}) > ${since}`,
    );
    const perSlot = new Map<string, number>();
    for (const r of rows)
      perSlot.set(`${r.client_id}:${r.slot}`, (perSlot.get(`${r.client_id}:${r.slot}`) ?? 0) + 1);
    expect([...perSlot.values()].every((n) => n === 1)).toBe(true);
    const slots = new Set(rows.map((r) => r.slot));
    expect(slots.size).toBeGreaterThanOrEqual(2);
    for (const slot of slots) {
      expect(
        rows
          .filter((r) => r.slot === slot)
          .map((r) => r.client_id)
          .sort(),
      ).toEqual([acme.id, beta.id].sort());
    }
    expect(rows.some((r) => r.client_id === acme.id && r.status === 'COMPLETED')).toBe(true);
    expect(rows.filter((r) => r.client_id === beta.id).every((r) => r.status !== 'COMPLETED')).toBe(true);

    const left = (
      await sql<{ id: number }>(a.masterDatabase, `SELECT id FROM backups WHERE key_id = 'old'`)
    ).map((r) => r.id);
    expect(left.sort()).toEqual([acmeRecent.id, betaOnly.id].sort());
    for (const gone of [acmeOldest, acmeOld, acmeFailed]) expect(existsSync(gone.path)).toBe(false);
    for (const kept of [acmeRecent, betaOnly]) expect(existsSync(kept.path)).toBe(true);
  });
});
