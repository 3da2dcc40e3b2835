import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
};
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, superAdminToken, TestApp } from '../support/test-app';
import { platform, until } from './helpers';

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const BUCKET = 'backups';

/** Backups in an S3-compatible store (a local s3rver): multipart, committed only when complete. */
describe('client backups in S3-compatible storage', () => {
  const sink = new SmtpSink();
  let dir: string;
  let s3: InstanceType<typeof S3rver>;
  let client: S3Client;
  let t: TestApp;
  let acme: ProvisionedClient;
  let api: ReturnType<typeof platform>;

  const keys = async () =>
    ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? [])
      .map((o) => o.Key)
      .sort();
  const backUp = async (clientId: number) => {
    const started = await api.post(`/clients/${clientId}/backups`);
    expect(started.status).toBe(202);
    return until(
      () => api.get(`/backups/${started.body.data.backupId}`),
      (b) => b.data.status === 'COMPLETED' || b.data.status === 'FAILED',
    );
  };
  const unitNames = async () => {
    const res = await t
      .http()
      .get('/api/units')
      .set({ 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` });
    expect(res.status).toBe(200);
    return (res.body.data as { name: string }[]).map((u) => u.name).sort();
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 's3rver-backups-'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await s3.run();
    const endpoint = `http://127.0.0.1:${port}`;
    client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS });
    await sink.start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        BACKUP_SCHEDULE: '',
        BACKUP_STORE: 's3',
        BACKUP_S3_ENDPOINT: endpoint,
        BACKUP_S3_BUCKET: BUCKET,
        BACKUP_S3_REGION: 'us-east-1',
        BACKUP_S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
        BACKUP_S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
        BACKUP_S3_FORCE_PATH_STYLE: 'true',
      },
    });
    api = platform(t, await superAdminToken(t));
    acme = await provisionClient(t, sink, 'acme');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    client?.destroy();
    await s3?.close();
    await sink.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('uploads a backup of several parts, restores from it and deletes it', async () => {
    const headers = { 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` };
    expect((await t.http().post('/api/units').set(headers).send({ name: 'In the bucket' })).status).toBe(201);
    // 12 MB that does not compress: the object takes two parts.
    await sql(clientDatabase(t.masterDatabase, 'acme'), 'CREATE TABLE public.filler (b bytea)');
    for (let i = 0; i < 3; i++) {
      await sql(clientDatabase(t.masterDatabase, 'acme'), 'INSERT INTO public.filler VALUES ($1)', [
        randomBytes(4 * 1024 * 1024),
      ]);
    }
    const backup = await backUp(acme.id);
    expect(backup.status).toBe('COMPLETED');
    const key = `clients/${acme.id}/backup-${backup.id}.pgdump.enc`;
    expect(await keys()).toEqual([key]);
    const object = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    const bytes = Buffer.from(await object.Body!.transformToByteArray());
    expect(bytes.length).toBe(backup.sizeBytes);
    expect(bytes.length).toBeGreaterThan(12 * 1024 * 1024);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(backup.sha256);

    expect((await t.http().post('/api/units').set(headers).send({ name: 'After' })).status).toBe(201);
    const restore = await api.post(`/backups/${backup.id}/restore`).send({ target: 'in-place' });
    expect(restore.status).toBe(202);
    const job = await until(
      () => api.get(`/restores/${restore.body.data.jobId}`),
      (b) => b.data.status === 'done' || b.data.status === 'failed',
    );
    expect(job.status).toBe('done');
    expect(await unitNames()).toEqual(['In the bucket']);

    expect((await api.delete(`/backups/${backup.id}`)).status).toBe(204);
    expect(await keys()).toEqual([]);
  });

  it('leaves no object when the dump fails', async () => {
    const gone = await provisionClient(t, sink, 'gone');
    await sql(t.masterDatabase, `DROP DATABASE "${clientDatabase(t.masterDatabase, 'gone')}" WITH (FORCE)`);
    const backup = await backUp(gone.id);
    expect(backup).toMatchObject({ status: 'FAILED', error: expect.stringMatching(/dump/i), sha256: null });
    expect(await keys()).toEqual([]);
  });
});
