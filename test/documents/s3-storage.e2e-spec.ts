import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
};
import { bootApp, superAdminToken, TestApp } from '../support/test-app';
import { textPdf } from './fixtures';
import { documentOf, upload } from './helpers';

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** Uploads in an S3-compatible store (a local s3rver): stored once per content, read back, OCR'd. */
describe('documents in S3-compatible storage', () => {
  let dir: string;
  let s3: InstanceType<typeof S3rver>;
  let endpoint: string;
  let t: TestApp;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 's3rver-'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'docs' }],
    });
    const { port } = await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
    t = await bootApp({
      env: {
        OCR_ENABLED: 'true',
        S3_ENDPOINT: endpoint,
        S3_BUCKET: 'docs',
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
        S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
        EVENT_RELAY_POLL_MS: '200',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores the content once, serves it back and extracts its text', async () => {
    const headers = { Authorization: `Bearer ${await superAdminToken(t)}` };
    const companies = await t.http().get('/api/admin/companies').set(headers).expect(200);
    const companyId = Math.min(...companies.body.data.map((c: { id: number }) => c.id));
    await t.http().post(`/api/companies/${companyId}/ocr-config/enable`).set(headers).expect(200);
    const pdf = textPdf(['Stored in the bucket']);
    const first = await upload(t, headers, companyId, [['a.pdf', pdf]]).expect(201);
    const second = await upload(t, headers, companyId, [['b.pdf', pdf]]).expect(201);
    expect(first.body[0]).toMatchObject({ provider: 's3', folderPath: `companies/${companyId}/uploads` });
    expect(second.body[0].hash).toBe(first.body[0].hash);
    expect(second.body[0].id).not.toBe(first.body[0].id);

    const client = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: CREDENTIALS,
    });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'docs' }));
    client.destroy();
    expect(listed.Contents?.map((o) => o.Key)).toEqual([
      `companies/${companyId}/uploads/${first.body[0].hash}.pdf`,
    ]);

    const content = await t
      .http()
      .get(second.body[0].url)
      .set(headers)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(content.body as Buffer, pdf)).toBe(0);
    const doc = await documentOf(t, headers, second.body[0].id);
    expect(doc.extractedText).toContain('Stored in the bucket');
  });
});
