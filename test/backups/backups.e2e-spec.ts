import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Receiver } from '../webhooks/receiver';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import {
  bootApp,
  login,
  ProvisionedClient,
  provisionClient,
  superAdminToken,
  TestApp,
} from '../support/test-app';
import { archiveContents, binary, platform, until } from './helpers';

interface Backup {
  id: number;
  clientId: number;
  kind: string;
  status: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * Backups of a whole client database (sandboxes included) to the local store, their restore in
 * place and into a new client, the corrupt-backup check and the platform-only rule.
 */
describe('client backups and restores (local store)', () => {
  const sink = new SmtpSink();
  const receiver = new Receiver();
  let dir: string;
  let t: TestApp;
  /** A second replica of the same deployment: it must serve the restored data as soon as the first. */
  let replica: TestApp;
  let root: string;
  let acme: ProvisionedClient;
  let api: ReturnType<typeof platform>;

  const as = (token: string, schema?: string) => {
    const headers: Record<string, string> = { 'X-Client-ID': 'acme', Authorization: `Bearer ${token}` };
    if (schema) headers['X-Tenant-ID'] = schema;
    return headers;
  };
  const unitNames = async (client = 'acme', token = acme.adminToken, schema?: string, on = t) => {
    const res = await on
      .http()
      .get('/api/units?pageSize=100')
      .set({ ...as(token, schema), 'X-Client-ID': client });
    expect(res.status).toBe(200);
    return (res.body.data as { name: string }[]).map((u) => u.name).sort();
  };
  const userEmails = async (client = 'acme', token = acme.adminToken) => {
    const res = await t
      .http()
      .get('/api/admin/users?pageSize=100')
      .set({ ...as(token), 'X-Client-ID': client });
    expect(res.status).toBe(200);
    return (res.body.data as { email: string }[]).map((u) => u.email).sort();
  };
  const addUnit = async (name: string, schema?: string) =>
    expect((await t.http().post('/api/units').set(as(acme.adminToken, schema)).send({ name })).status).toBe(
      201,
    );
  const addUser = async (email: string) => {
    const roles = await t.http().get('/api/admin/roles').set(as(acme.adminToken));
    const roleId = roles.body.data.find((r: { type: string }) => r.type === 'VIEWER').id;
    expect(
      (await t.http().post('/api/admin/users').set(as(acme.adminToken)).send({ email, roleId })).status,
    ).toBe(201);
  };
  const backUp = async (clientId = acme.id): Promise<Backup> => {
    const started = await api.post(`/clients/${clientId}/backups`);
    expect(started.status).toBe(202);
    expect(started.body.data).toEqual({ backupId: expect.any(Number), jobId: expect.any(String) });
    return await until(
      () => api.get(`/backups/${started.body.data.backupId}`),
      (b) => b.data.status === 'COMPLETED' || b.data.status === 'FAILED',
    );
  };
  const restore = async (backupId: number, body: Record<string, unknown>) => {
    const started = await api.post(`/backups/${backupId}/restore`).send(body);
    expect(started.status).toBe(202);
    return started.body.data.jobId as string;
  };
  const finished = (jobId: string) =>
    until(
      () => api.get(`/restores/${jobId}`),
      (b) => b.data.status === 'done' || b.data.status === 'failed',
    );
  const objectOf = (backup: Backup) => join(dir, `clients/${backup.clientId}/backup-${backup.id}.pgdump.enc`);
  const databasesOfAcme = async () =>
    (
      await sql<{ datname: string }>(
        t.masterDatabase,
        'SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname LIKE $2',
        [`${clientDatabase(t.masterDatabase, 'acme')}%`, `\\_${clientDatabase(t.masterDatabase, 'acme')}%`],
      )
    ).map((r) => r.datname);

  let backup: Backup;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'backups-'));
    await Promise.all([sink.start(), receiver.start()]);
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        BACKUP_DIR: dir,
        BACKUP_SCHEDULE: '',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        EVENT_RELAY_POLL_MS: '200',
      },
    });
    replica = await bootApp({
      masterDatabase: t.masterDatabase,
      env: { ...(t.env as Record<string, string>), QUEUE_PROCESSORS_ENABLED: 'false' },
    });
    root = await superAdminToken(t);
    api = platform(t, root);
    acme = await provisionClient(t, sink, 'acme', { maxSandboxes: 2 });
    const hook = await t
      .http()
      .post('/api/admin/webhooks')
      .set(as(acme.adminToken))
      .send({ name: 'Units', url: receiver.url('/units'), events: ['unit.created'] });
    expect(hook.status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await replica?.close();
    await t?.close();
    await Promise.all([sink.stop(), receiver.stop()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('backs up the whole database, encrypted, and lists, shows and hands it over', async () => {
    await addUnit('Before backup');
    expect((await t.http().post('/sandboxes').set(as(acme.adminToken)).send({ name: 'QA' })).status).toBe(
      201,
    );
    await addUnit('Sandbox before', 'sandbox_qa');
    await addUser('kept@acme.test');
    // An event committed but not handed on yet when the backup is taken (its signal lost).
    await sql(
      clientDatabase(t.masterDatabase, 'acme'),
      `INSERT INTO event_outbox (event_id, event, entity_type, entity_id, attributes, metadata)
       VALUES (gen_random_uuid(), 'unit.created', 'Unit', 1, '{"name":"Pending at backup"}', '{}')`,
    );

    backup = await backUp();
    expect(backup).toMatchObject({ clientId: acme.id, kind: 'MANUAL', status: 'COMPLETED', error: null });
    const stored = readFileSync(objectOf(backup));
    expect(backup.sizeBytes).toBe(stored.length);
    expect(backup.sha256).toBe(createHash('sha256').update(stored).digest('hex'));
    expect(stored.includes(Buffer.from('Before backup'))).toBe(false);
    expect(stored.includes(Buffer.from('PGDMP'))).toBe(false);

    const second = await backUp();
    const listed = await api.get(`/clients/${acme.id}/backups`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((b: Backup) => b.id)).toEqual([second.id, backup.id]);
    expect(listed.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 2 });
    expect(Object.keys(listed.body.data[0]).sort()).toEqual(
      ['clientId', 'error', 'finishedAt', 'id', 'kind', 'sha256', 'sizeBytes', 'startedAt', 'status'].sort(),
    );

    const download = await api.get(`/backups/${backup.id}/download`).buffer(true).parse(binary);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="acme-backup-\d+-.*\.dump"$/,
    );
    const archive = download.body as Buffer;
    expect(archive.subarray(0, 5).toString()).toBe('PGDMP');
    const contents = archiveContents(archive);
    expect(contents).toMatch(/TABLE DATA public units/);
    expect(contents).toMatch(/TABLE DATA sandbox_qa units/);

    expect((await api.delete(`/backups/${second.id}`)).status).toBe(204);
    expect((await api.get(`/backups/${second.id}`)).status).toBe(404);
    expect(existsSync(objectOf(second))).toBe(false);
    expect((await api.delete(`/backups/${second.id}`)).status).toBe(404);

    const metrics = (await t.http().get('/metrics')).text;
    expect(metrics).toMatch(/^client_backups_total\{outcome="completed"\} 2$/m);
    expect(metrics).toMatch(/^client_backup_bytes_total \d+$/m);
    expect(metrics).toMatch(/^client_backup_oldest_newest_completed_age_seconds \d+(\.\d+)?(e[-+]?\d+)?$/m);
  });

  it('restores in place exactly the backup: records, a sandbox, users; events are not sent again', async () => {
    // The event pending at backup time is handed on once, with the next one committed.
    await addUnit('After backup');
    await receiver.waitFor('/units', 2);
    await addUnit('Sandbox after', 'sandbox_qa');
    await addUser('later@acme.test');
    const [before] = await databasesOfAcme();
    // The replica holds connections and a sandbox list of the database about to be replaced.
    expect(await unitNames('acme', acme.adminToken, 'sandbox_qa', replica)).toEqual([
      'Sandbox after',
      'Sandbox before',
    ]);

    const jobId = await restore(backup.id, { target: 'in-place' });
    // Every answer until the restore is over is the old data or a refusal; never a mix.
    const refusals: { status: number; code?: string; retryAfter?: string }[] = [];
    for (;;) {
      const res = await t.http().get('/api/units').set(as(acme.adminToken));
      if (res.status === 503) {
        refusals.push({
          status: res.status,
          code: res.body.error.code,
          retryAfter: res.headers['retry-after'],
        });
      } else expect(res.status).toBe(200);
      const state = await api.get(`/restores/${jobId}`);
      if (state.body.data.status !== 'queued' && state.body.data.status !== 'running') break;
    }
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals[0]).toEqual({ status: 503, code: 'CLIENT_RESTORING', retryAfter: expect.any(String) });
    const job = await finished(jobId);
    expect(job).toMatchObject({
      jobId,
      backupId: backup.id,
      clientId: acme.id,
      target: 'in-place',
      status: 'done',
    });
    expect(job.finishedAt).toEqual(expect.any(String));

    expect(await unitNames()).toEqual(['Before backup']);
    expect(await unitNames('acme', acme.adminToken, 'sandbox_qa')).toEqual(['Sandbox before']);
    expect(await unitNames('acme', acme.adminToken, undefined, replica)).toEqual(['Before backup']);
    expect(await unitNames('acme', acme.adminToken, 'sandbox_qa', replica)).toEqual(['Sandbox before']);
    const emails = await userEmails();
    expect(emails).toContain('kept@acme.test');
    expect(emails).not.toContain('later@acme.test');
    const after = await databasesOfAcme();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);

    await addUnit('After restore');
    await receiver.waitFor('/units', 3);
    await new Promise((r) => setTimeout(r, 1500));
    const names = receiver.at('/units').map((r) => r.body.data.attributes.name as string);
    expect(names.filter((n) => n === 'Pending at backup')).toHaveLength(1);
    expect(names.filter((n) => n === 'After restore')).toHaveLength(1);

    const audit = await sql<{ user_id: number; message: string }>(
      t.masterDatabase,
      `SELECT user_id, message FROM audit_logs WHERE entity_type = 'Client' AND entity_id = $1 AND message LIKE 'Restore%'`,
      [String(acme.id)],
    );
    expect(audit).toEqual([
      { user_id: expect.any(Number), message: `Restore of backup ${backup.id} (in-place) done` },
    ]);
  });

  it('restores into a new client beside the untouched original, with its own login role', async () => {
    const jobId = await restore(backup.id, {
      target: 'new-client',
      identifier: 'acme-copy',
      subdomain: 'acme-copy',
      name: 'Acme copy',
      contactEmail: 'copy@acme.test',
    });
    const job = await finished(jobId);
    expect(job).toMatchObject({ target: 'new-client', status: 'done' });
    const copy = await api.get(`/clients/${job.clientId}`);
    expect(copy.body.data).toMatchObject({ identifier: 'acme-copy', status: 'ACTIVE' });

    const token = await login(t, acme.adminEmail, acme.adminPassword, 'acme-copy');
    expect(await unitNames('acme-copy', token)).toEqual(['Before backup']);
    expect(await unitNames('acme-copy', token, 'sandbox_qa')).toEqual(['Sandbox before']);
    expect(await userEmails('acme-copy', token)).toEqual(await userEmails('acme', acme.adminToken));
    expect(await unitNames()).toEqual(['After restore', 'Before backup']);

    const [row] = await sql<{ database_username: string; database_password: string }>(
      t.masterDatabase,
      'SELECT database_username, database_password FROM clients WHERE id = $1',
      [job.clientId],
    );
    expect(row.database_username).toBe(clientDatabase(t.masterDatabase, 'acme-copy'));
    expect(row.database_password).toMatch(/^v1:/);
  });

  it("never takes over nor drops a database of the new client's name it did not create", async () => {
    const taken = clientDatabase(t.masterDatabase, 'acme-taken');
    await sql('postgres', `CREATE DATABASE "${taken}"`);
    await sql(taken, "CREATE TABLE kept (note text); INSERT INTO kept VALUES ($$not the platform's$$)");
    const jobId = await restore(backup.id, {
      target: 'new-client',
      identifier: 'acme-taken',
      name: 'Acme taken',
      contactEmail: 'taken@acme.test',
    });
    const job = await finished(jobId);
    expect(job).toMatchObject({ status: 'failed' });
    expect(job.error).toMatch(/has a database .* already; nothing was changed/);
    expect(await sql<{ note: string }>(taken, 'SELECT note FROM kept')).toEqual([
      { note: "not the platform's" },
    ]);
    const roles = await sql('postgres', 'SELECT 1 FROM pg_roles WHERE rolname = $1', [taken]);
    expect(roles).toEqual([]);
  });

  it('refuses a corrupted backup with 422 BACKUP_CORRUPT and changes nothing', async () => {
    const fresh = await backUp();
    const path = objectOf(fresh);
    const good = readFileSync(path);
    const databases = await databasesOfAcme();
    const clients = await sql(t.masterDatabase, 'SELECT count(*) AS n FROM clients');
    const flipped = Buffer.from(good);
    flipped[Math.floor(flipped.length / 2)] ^= 0xff;
    for (const bad of [flipped, good.subarray(0, good.length - 7)]) {
      writeFileSync(path, bad);
      for (const body of [
        { target: 'in-place' },
        { target: 'new-client', identifier: 'acme-bad', name: 'Bad', contactEmail: 'bad@acme.test' },
      ]) {
        const res = await api.post(`/backups/${fresh.id}/restore`).send(body);
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('BACKUP_CORRUPT');
      }
    }
    // Re-encrypted under the right key but the hash no longer matches: still refused.
    writeFileSync(path, good);
    const ok = await api.get(`/backups/${fresh.id}`);
    expect(ok.body.data.status).toBe('COMPLETED');
    expect(await databasesOfAcme()).toEqual(databases);
    expect(await sql(t.masterDatabase, 'SELECT count(*) AS n FROM clients')).toEqual(clients);
    expect(await unitNames()).toEqual(['After restore', 'Before backup']);
  });

  it('refuses every backup route to anyone but the platform SUPER_ADMIN', async () => {
    const routes: [string, string][] = [
      ['post', `/api/platform/clients/${acme.id}/backups`],
      ['get', `/api/platform/clients/${acme.id}/backups`],
      ['get', `/api/platform/backups/${backup.id}`],
      ['delete', `/api/platform/backups/${backup.id}`],
      ['get', `/api/platform/backups/${backup.id}/download`],
      ['post', `/api/platform/backups/${backup.id}/restore`],
      ['get', `/api/platform/restores/00000000-0000-4000-8000-000000000000`],
    ];
    for (const [method, path] of routes) {
      const call = () =>
        (t.http() as unknown as Record<string, (p: string) => import('supertest').Test>)[method](path);
      expect((await call()).status).toBe(401);
      const asClientAdmin = await call().set(as(acme.adminToken)).send({ target: 'in-place' });
      expect([401, 403]).toContain(asClientAdmin.status);
    }
    expect((await api.get(`/backups/${backup.id}`)).status).toBe(200);
  });
});
