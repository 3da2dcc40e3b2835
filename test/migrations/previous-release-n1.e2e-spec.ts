import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertCommitInClone,
  buildPreviousRelease,
  dependencyDifferences,
  PreviousRelease,
  RunningRelease,
  startApi,
} from '../support/previous-release';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { Receiver } from '../webhooks/receiver';
import { platformSmoke, releaseSmoke, SmokeStep } from './release-smoke';
import { startCompiledWorker } from '../support/compile-app';
import { clientDatabase } from '../support/pg';
import { NEWEST_CLIENT_MIGRATION, undoNewestClientMigration } from '../support/undo-migration';
import { SUPER_ADMIN, superAdminToken } from '../support/test-app';

/**
 * N-1: during a rollout the previous release (release/previous) serves on databases the current
 * migrations made. It is built from git, started as a process of its own beside the current app
 * (same master database, Redis prefix and client databases) and must answer the smoke with 2xx.
 */
describe('the previous release on databases migrated by the current code', () => {
  let sink: SmtpSink;
  let receiver: Receiver;
  let t: TestApp;
  let acme: ProvisionedClient;
  let built: PreviousRelease;
  let previous: RunningRelease | undefined;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    receiver = await new Receiver().start();
    const current = async () => {
      // The current app on a fresh master database: master and client migrations are the current ones.
      t = await bootApp({ env: { SMTP_URL: sink.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
      acme = await provisionClient(t, sink, 'nminus1');
    };
    [built] = await Promise.all([buildPreviousRelease(), current()]);
    // An API process as deployed (its queues are worked by the workers, here the current app's): a
    // worker of the previous release would take a share of the current release's migration jobs.
    previous = await startApi(built.main, built.tree, { ...t.env, QUEUE_PROCESSORS_ENABLED: 'false' });
    // Its first check of the clients' schemas runs in the background and answers 503 CLIENT_MIGRATING
    // for a client meanwhile (a rolled-out pod's callers retry on that 503); the smoke starts after it.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await fetch(`${previous.baseUrl}/api/units`, {
        headers: { 'X-Client-ID': acme.identifier },
      });
      if (res.status !== 503 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 180_000);
  afterAll(async () => {
    await previous?.stop();
    await t?.close();
    await receiver?.stop();
    await sink?.stop();
  });

  it('starts on the master database and a client database of the current migrations, and is ready', async () => {
    const ready = await fetch(`${previous!.baseUrl}/management/health/readiness`);
    expect(ready.status).toBe(200);
  });

  it('answers 2xx to the smoke through the generated client, on routes its own document has', async () => {
    let steps: SmokeStep[] = [];
    try {
      steps = await releaseSmoke({
        baseUrl: previous!.baseUrl,
        clientId: acme.identifier,
        identifier: acme.adminEmail,
        password: acme.adminPassword,
        receiverUrl: receiver.url('/n1'),
      });
    } catch (err) {
      throw new Error(
        `${(err as Error).message}\nprevious release's log:\n${previous!.output().slice(-4000)}`,
      );
    }
    expect(steps.length).toBeGreaterThanOrEqual(25);
    expect(steps.filter((s) => s.status < 200 || s.status > 299)).toEqual([]);

    // The current generated client is used for routes the previous release's document has as well.
    const document = JSON.parse(readFileSync(join(built.tree, 'openapi.json'), 'utf8')) as {
      paths: Record<string, object>;
    };
    expect(steps.filter((s) => !(s.method in (document.paths[s.path] ?? {})))).toEqual([]);

    // What the previous release wrote, the current one reads.
    const units = await t
      .http()
      .get('/api/units')
      .set({ 'X-Client-ID': acme.identifier, Authorization: `Bearer ${acme.adminToken}` })
      .expect(200);
    expect(units.body.data).toEqual([expect.objectContaining({ name: 'N-1 unit', status: 'MAINTENANCE' })]);
  });

  it('serves platform administration: lists, a migrate-all job with nothing to run, a new client', async () => {
    const result = await platformSmoke({
      baseUrl: previous!.baseUrl,
      email: SUPER_ADMIN.email,
      password: SUPER_ADMIN.password,
      newClient: 'nminus1new',
    });
    expect(result.steps.filter((s) => s.status < 200 || s.status > 299)).toEqual([]);
    const document = JSON.parse(readFileSync(join(built.tree, 'openapi.json'), 'utf8')) as {
      paths: Record<string, object>;
    };
    expect(result.steps.filter((s) => !(s.method in (document.paths[s.path] ?? {})))).toEqual([]);
    // Newer client databases are current to the previous release: its job runs nothing on them.
    expect(result.pendingBefore).toBe(0);
    expect(result.job).toMatchObject({ finished: 1, failed: 0, migrated: 0 });

    // The client it provisioned (by whichever release's worker took the job) ends up current to the
    // current release once migrated.
    const root = await superAdminToken(t);
    const status = async () =>
      (
        await t
          .http()
          .get('/api/platform/clients/migration-status')
          .set('Authorization', `Bearer ${root}`)
          .expect(200)
      ).body.data as Record<string, { pendingCount: number }>;
    await t
      .http()
      .post(`/api/platform/clients/${result.newClientId}/migrate`)
      .set('Authorization', `Bearer ${root}`)
      .expect(202);
    const deadline = Date.now() + 30_000;
    while ((await status()).nminus1new.pendingCount > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await status()).nminus1new.pendingCount).toBe(0);
  });

  it("leaves the current release's migration jobs to the current workers", async () => {
    // A worker of the previous release beside the current app's processors, as while workers roll.
    const worker = await startCompiledWorker(join(built.tree, 'dist'), t.env);
    try {
      const root = await superAdminToken(t);
      const listed = await t
        .http()
        .get('/api/platform/clients')
        .set('Authorization', `Bearer ${root}`)
        .expect(200);
      const identifiers = (listed.body.data as { identifier: string; status: string }[])
        .filter((c) => c.status === 'ACTIVE')
        .map((c) => c.identifier)
        .sort();
      for (let round = 1; round <= 4; round++) {
        for (const id of identifiers) await undoNewestClientMigration(clientDatabase(t.masterDatabase, id));
        const started = await t
          .http()
          .post('/api/platform/clients/migrate')
          .set('Authorization', `Bearer ${root}`)
          .expect(202);
        const deadline = Date.now() + 30_000;
        let job: {
          status: string;
          clients: { identifier: string; status: string; migrationsRun: string[] }[];
        };
        do {
          await new Promise((r) => setTimeout(r, 200));
          job = (
            await t
              .http()
              .get(`/api/platform/migrations/${started.body.data.jobId}`)
              .set('Authorization', `Bearer ${root}`)
              .expect(200)
          ).body.data;
        } while (job.status !== 'finished' && Date.now() < deadline);
        // A part the old worker took would be done with nothing run, its client left behind.
        const parts = job.clients.map((c) => [c.identifier, c.status, c.migrationsRun]);
        expect(parts.sort()).toEqual(identifiers.map((id) => [id, 'done', [NEWEST_CLIENT_MIGRATION]]));
      }
    } finally {
      const exited = new Promise((r) => worker.child.once('exit', r));
      worker.child.kill('SIGKILL');
      await exited;
    }
  });
});

describe('building the previous release', () => {
  it('fails with how to fetch the commit when the clone does not have it', async () => {
    const missing = 'f'.repeat(40);
    expect(() => assertCommitInClone(missing)).toThrow(`git fetch origin ${missing}`);
    await expect(buildPreviousRelease(missing)).rejects.toThrow(/is not in this clone.*shallow/);
  });

  it('runs on the current node_modules only when the declared dependencies are the same', () => {
    const now = { dependencies: { pg: '^8.23.1', typeorm: '^0.3.31' }, overrides: { a: 'file:x' } };
    expect(dependencyDifferences(now, now)).toEqual([]);
    expect(
      dependencyDifferences(
        { dependencies: { pg: '^8.20.0', gone: '^1.0.0' }, overrides: { a: 'file:x' } },
        now,
      ),
    ).toEqual([
      'pg: ^8.20.0 then, ^8.23.1 now',
      'gone: ^1.0.0 then, (none) now',
      'typeorm: (none) then, ^0.3.31 now',
    ]);
    expect(dependencyDifferences({ ...now, overrides: {} }, now)).toEqual(['overrides']);
  });
});
