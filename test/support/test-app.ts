import { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import { parseDatabaseUrl, withAdminConnection } from '../../src/database/data-source-factory';
import { codeFromMail, SmtpSink } from './smtp-sink';
import { StartupMigrations } from '../../src/platform/startup-migrations';
import { checkedInContract, checkResponses } from './contract/contract-hook';
import {
  ADMIN_URL,
  databaseUrl,
  POOLER_URL,
  pooledDatabaseUrl,
  REDIS_URL,
  runPrefix,
  templateDatabase,
} from './test-env';

export const SUPER_ADMIN = { email: 'root@platform.test', password: 'Sup3r-secret-pass' };

export interface TestApp {
  app: INestApplication;
  env: NodeJS.ProcessEnv;
  masterDatabase: string;
  /** A supertest agent against this instance. */
  http: () => ReturnType<typeof request>;
  close: () => Promise<void>;
}

let created = 0;

/** A fresh master database cloned from the run's migrated template. */
export async function createMasterDatabase(): Promise<string> {
  const name = `${runPrefix()}_m${process.env.JEST_WORKER_ID ?? 0}_${++created}${randomBytes(2).toString('hex')}`;
  await withAdminConnection(parseDatabaseUrl(ADMIN_URL), (pg) =>
    pg.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDatabase()}"`),
  );
  return name;
}

/**
 * Boots the real application on a random port. Pass `masterDatabase` to start a second replica of
 * the same deployment (same master database and Redis prefix).
 */
export async function bootApp(
  options: { env?: Record<string, string>; masterDatabase?: string; waitForClients?: boolean } = {},
): Promise<TestApp> {
  const masterDatabase = options.masterDatabase ?? (await createMasterDatabase());
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    PATH: process.env.PATH,
    DATABASE_URL: pooledDatabaseUrl(masterDatabase),
    ...poolerEnv(masterDatabase),
    REDIS_URL,
    REDIS_PREFIX: masterDatabase,
    MULTITENANCY_DB_HOST: parseDatabaseUrl(ADMIN_URL).host,
    MULTITENANCY_DB_PORT: String(parseDatabaseUrl(ADMIN_URL).port),
    MULTITENANCY_DB_PREFIX: `${masterDatabase}_`,
    BOOTSTRAP_ADMIN_EMAIL: SUPER_ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN.password,
    BCRYPT_ROUNDS: '4',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    CLIENT_CACHE_REFRESH_MS: '5000',
    STORAGE_DIR: join(tmpdir(), masterDatabase),
    // No scheduled backups unless a test asks for them (they would run at 02:00 in every app).
    BACKUP_SCHEDULE: '',
    BACKUP_DIR: join(tmpdir(), `${masterDatabase}-backups`),
    // Tests log in far more often than a person; the rate-limit tests set the real limits.
    AUTH_LOGIN_LIMIT_PER_IDENTIFIER: '1000',
    AUTH_LOGIN_LIMIT_PER_ADDRESS: '1000',
    AUTH_PUBLIC_LIMIT_PER_ADDRESS: '1000',
    ...options.env,
  };
  const app = await createApp(env);
  // Every answer of the app is checked against the checked-in openapi.json (see contract/).
  checkResponses(app.getHttpServer(), await checkedInContract());
  await app.listen(0, '127.0.0.1');
  // A replica booted on an existing deployment checks its clients in the background; tests start
  // once that first pass is over (unless they test it), as a rolled-out pod turns ready.
  if (options.waitForClients ?? true) await app.get(StartupMigrations, { strict: false }).settled();
  return {
    app,
    env,
    masterDatabase,
    http: () => request(app.getHttpServer()),
    close: () => app.close(),
  };
}

/** Settings that send the app's pools through the run's pooler, if it has one. */
function poolerEnv(masterDatabase: string): Record<string, string> {
  if (!POOLER_URL) return {};
  const pooler = parseDatabaseUrl(POOLER_URL);
  return {
    DATABASE_DIRECT_URL: databaseUrl(masterDatabase),
    MULTITENANCY_DB_POOLER_HOST: pooler.host,
    MULTITENANCY_DB_POOLER_PORT: String(pooler.port),
  };
}

export async function login(
  t: TestApp,
  identifier: string,
  password: string,
  client?: string,
): Promise<string> {
  const req = t.http().post('/auth/local').send({ identifier, password });
  if (client) req.set('X-Client-ID', client);
  const res = await req;
  if (res.status !== 200)
    throw new Error(`login ${identifier} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.jwt;
}

export const superAdminToken = (t: TestApp) => login(t, SUPER_ADMIN.email, SUPER_ADMIN.password);

export interface ProvisionedClient {
  id: number;
  identifier: string;
  adminEmail: string;
  adminPassword: string;
  adminToken: string;
}

/**
 * Creates and provisions a client through the platform API, sets its first ADMIN's password with
 * the code from the setup mail (the app must use `sink` as SMTP_URL) and logs that admin in.
 */
export async function provisionClient(
  t: TestApp,
  sink: SmtpSink,
  identifier: string,
  extra: Record<string, unknown> = {},
): Promise<ProvisionedClient> {
  const root = await superAdminToken(t);
  const adminEmail = `admin@${identifier}.test`;
  const created = await t
    .http()
    .post('/api/platform/clients')
    .set('Authorization', `Bearer ${root}`)
    .send({ identifier, name: `${identifier} Energy`, contactEmail: adminEmail, ...extra });
  if (created.status !== 201)
    throw new Error(`create client: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.data.id;
  const started = await t
    .http()
    .post(`/api/platform/clients/${id}/provision`)
    .set('Authorization', `Bearer ${root}`);
  if (started.status !== 202) throw new Error(`provision: ${started.status} ${JSON.stringify(started.body)}`);
  await waitForStatus(t, root, id, 'ACTIVE');
  const mail = await sink.waitFor(adminEmail, (m) => m.text.includes('code='));
  const adminPassword = 'Adm1n-password!';
  const reset = await t
    .http()
    .post('/auth/reset-password')
    .set('X-Client-ID', identifier)
    .send({ code: codeFromMail(mail), password: adminPassword, passwordConfirmation: adminPassword });
  if (reset.status !== 200) throw new Error(`reset: ${reset.status} ${JSON.stringify(reset.body)}`);
  const adminToken = await login(t, adminEmail, adminPassword, identifier);
  return { id, identifier, adminEmail, adminPassword, adminToken };
}

export async function waitForStatus(
  t: TestApp,
  token: string,
  id: number,
  status: string,
  timeoutMs = 30000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.http().get(`/api/platform/clients/${id}`).set('Authorization', `Bearer ${token}`);
    if (res.body?.data?.status === status) return res.body.data;
    if (Date.now() > deadline) throw new Error(`client ${id} not ${status}: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
