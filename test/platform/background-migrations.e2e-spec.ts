import { Client as PgClient } from 'pg';
import { runMigrationJob } from '../support/migration-jobs';
import { clientDatabase, sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, superAdminToken, TestApp } from '../support/test-app';
import { databaseUrl } from '../support/test-env';

const NAME = 'AuditLogsCompany';
const BATCH = 500;
const ROWS = 5000;
/** The background migrations' advisory lock (one per schema, with the hashed schema name). */
const BACKGROUND_LOCK = 7243003;

interface BackgroundState {
  schema: string;
  name: string;
  rowsDone: number;
  done: boolean;
  error?: string;
}

/**
 * Background data migrations run by a migrate-all job: the audit entries the previous release left
 * without a company are filled in batches of BACKGROUND_MIGRATION_BATCH_SIZE, the job showing the
 * rows done after each batch, the table served meanwhile; a failing batch is reported and the next
 * job resumes after the last committed batch.
 */
describe('background migrations', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let acme: ProvisionedClient;
  let root: string;
  let db: string;
  let user: { id: number; company_id: number };

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        BACKGROUND_MIGRATION_BATCH_SIZE: String(BATCH),
        BACKGROUND_MIGRATION_PAUSE_MS: '150',
      },
    });
    acme = await provisionClient(t, sink, 'acme');
    root = await superAdminToken(t);
    db = clientDatabase(t.masterDatabase, acme.identifier);
    // Provisioning ran them on the new database: each finished in one empty batch.
    await until('the provisioned database to record its background migrations', async () => {
      const rows = await sql(
        db,
        `SELECT 1 FROM background_migrations WHERE name = $1 AND finished_at IS NOT NULL`,
        [NAME],
      );
      return rows.length === 1;
    });
    [user] = await sql<{ id: number; company_id: number }>(
      db,
      'SELECT id, company_id FROM users WHERE company_id IS NOT NULL ORDER BY id LIMIT 1',
    );
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Entries as the previous release wrote them (no company), and the back-fill not yet run. */
  async function entriesWithoutCompany() {
    await sql(
      db,
      `INSERT INTO audit_logs (action, entity_type, user_id, message)
       SELECT 'ACCESS', 'Unit', $1, 'written by the previous release ' || g FROM generate_series(1, ${ROWS}) g`,
      [user.id],
    );
    await sql(db, `DELETE FROM background_migrations WHERE name = $1`, [NAME]);
  }

  const withoutCompany = async () =>
    Number(
      (
        await sql<{ n: string }>(
          db,
          'SELECT count(*) AS n FROM audit_logs WHERE user_id = $1 AND company_id IS NULL',
          [user.id],
        )
      )[0].n,
    );
  const progressRow = async () =>
    (
      await sql<{ cursor: string | null; rows_done: string; finished: boolean; error: string | null }>(
        db,
        `SELECT cursor, rows_done, finished_at IS NOT NULL AS finished, error FROM background_migrations WHERE name = $1`,
        [NAME],
      )
    )[0];
  const job = async (jobId: string) =>
    (await t.http().get(`/api/platform/migrations/${jobId}`).set('Authorization', `Bearer ${root}`)).body
      .data;
  const acmeState = (view: { clients: { identifier: string; backgroundMigrations?: BackgroundState[] }[] }) =>
    view.clients
      .find((c) => c.identifier === 'acme')
      ?.backgroundMigrations?.find((s) => s.schema === 'public' && s.name === NAME);

  it('fills the rows in batches, the job showing them grow, while reads and inserts on the table stay fast', async () => {
    await entriesWithoutCompany();
    expect(await withoutCompany()).toBeGreaterThanOrEqual(ROWS);
    const started = await t
      .http()
      .post('/api/platform/clients/migrate')
      .set('Authorization', `Bearer ${root}`);
    expect(started.status).toBe(202);
    const { jobId } = started.body.data as { jobId: string };

    const probe = new PgClient({ connectionString: databaseUrl(db), application_name: 'test-probe' });
    await probe.connect();
    const latencies: { statement: string; ms: number }[] = [];
    const seen = new Set<number>();
    let view: Awaited<ReturnType<typeof job>>;
    const [{ id: someId }] = await sql<{ id: string }>(db, 'SELECT max(id) AS id FROM audit_logs');
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        for (const [statement, params] of [
          ['SELECT id, company_id FROM audit_logs WHERE id = $1', [someId]],
          [
            `INSERT INTO audit_logs (action, entity_type, user_id, company_id) VALUES ('ACCESS', 'Unit', $1, $2)`,
            [user.id, user.company_id],
          ],
        ] as const) {
          const begun = Date.now();
          await probe.query(statement, [...params]);
          latencies.push({ statement, ms: Date.now() - begun });
        }
        view = await job(jobId);
        const state = acmeState(view);
        if (state) seen.add(state.rowsDone);
        if (view.status === 'finished') break;
        if (Date.now() > deadline) throw new Error(`job not finished: ${JSON.stringify(view)}`);
        await new Promise((r) => setTimeout(r, 30));
      }
    } finally {
      await probe.end();
    }

    expect(view.clients).toEqual([
      expect.objectContaining({
        identifier: 'acme',
        status: 'done',
        backgroundMigrations: [{ schema: 'public', name: NAME, rowsDone: expect.any(Number), done: true }],
      }),
    ]);
    const final = acmeState(view)!.rowsDone;
    expect(final).toBeGreaterThanOrEqual(ROWS);
    // Several batches were seen in between: the walk committed its progress batch by batch.
    const between = [...seen].filter((rows) => rows > 0 && rows < final);
    expect(between.length).toBeGreaterThanOrEqual(3);
    for (const rows of between) expect(rows % BATCH).toBe(0);
    expect(await withoutCompany()).toBe(0);
    expect(await progressRow()).toMatchObject({ cursor: null, finished: true, error: null });
    expect(Number((await progressRow()).rows_done)).toBe(final);

    expect(latencies.length).toBeGreaterThan(10);
    const slowest = latencies.reduce((a, b) => (b.ms > a.ms ? b : a));
    expect(slowest.ms).toBeLessThan(1000);
  });

  it('reports a failing batch and resumes after the last committed batch on the next job', async () => {
    await entriesWithoutCompany();
    const [{ total }] = await sql<{ total: string }>(db, 'SELECT count(*) AS total FROM audit_logs');
    // The row 3,200 entries before the end cannot take a company: the batch holding it fails.
    const [{ id: failing }] = await sql<{ id: string }>(
      db,
      'SELECT id FROM audit_logs ORDER BY id DESC OFFSET 3200 LIMIT 1',
    );
    await sql(
      db,
      `ALTER TABLE audit_logs ADD CONSTRAINT test_no_company_from CHECK (company_id IS NULL OR id < ${failing}) NOT VALID`,
    );
    try {
      const failed = await runMigrationJob(t, root, '/api/platform/clients/migrate', 60_000);
      expect(failed.counts).toMatchObject({ total: 1, failed: 1, done: 0 });
      const state = acmeState(failed)!;
      expect(state).toEqual({
        schema: 'public',
        name: NAME,
        rowsDone: expect.any(Number),
        done: false,
        error: 'Database error 23514: integrity constraint violation',
      });
      expect(failed.clients[0].error).toBe(
        `Background migration ${NAME} failed in public: Database error 23514: integrity constraint violation`,
      );
      const stored = await progressRow();
      expect(stored.error).toMatch(/test_no_company_from/);
      expect(stored.finished).toBe(false);
      expect(Number(stored.rows_done)).toBe(state.rowsDone);
      // It stopped at the failing batch: everything before its cursor is filled, nothing after.
      expect(BigInt(stored.cursor!)).toBeLessThan(BigInt(failing));
      expect(state.rowsDone).toBeGreaterThan(0);
      expect(state.rowsDone % BATCH).toBe(0);
      const [{ filledAfter }] = await sql<{ filledAfter: string }>(
        db,
        'SELECT count(*) AS "filledAfter" FROM audit_logs WHERE id > $1 AND company_id IS NOT NULL AND user_id = $2 AND message LIKE $3',
        [stored.cursor, user.id, 'written by the previous release %'],
      );
      expect(Number(filledAfter)).toBe(0);
      expect(await withoutCompany()).toBeGreaterThan(0);
    } finally {
      await sql(db, 'ALTER TABLE audit_logs DROP CONSTRAINT IF EXISTS test_no_company_from');
    }

    const resumed = await runMigrationJob(t, root, '/api/platform/clients/migrate', 60_000);
    expect(resumed.counts).toMatchObject({ total: 1, done: 1, failed: 0 });
    expect(acmeState(resumed)).toEqual({ schema: 'public', name: NAME, rowsDone: Number(total), done: true });
    // Every row walked exactly once over both runs: the second started at the stored cursor.
    expect(Number((await progressRow()).rows_done)).toBe(Number(total));
    expect(await withoutCompany()).toBe(0);
  });

  it('leaves a client with an open move alone and shows it skipped', async () => {
    await entriesWithoutCompany();
    const before = await withoutCompany();
    const [server] = await sql<{ id: number }>(
      t.masterDatabase,
      'SELECT id FROM database_servers ORDER BY id LIMIT 1',
    );
    await sql(
      t.masterDatabase,
      `INSERT INTO client_moves (job_id, client_id, identifier, from_server_id, to_server_id, mode, status, step)
       VALUES ('00000000-0000-4000-8000-0000000000b1', $1, 'acme', $2, $2, 'copy', 'queued', 'queued')`,
      [acme.id, server.id],
    );
    try {
      const view = await runMigrationJob(t, root, '/api/platform/clients/migrate', 60_000);
      expect(view.clients[0]).toMatchObject({
        status: 'done',
        backgroundSkipped: 'move',
        backgroundMigrations: [],
      });
      expect(await withoutCompany()).toBe(before);
    } finally {
      await sql(
        t.masterDatabase,
        `DELETE FROM client_moves WHERE job_id = '00000000-0000-4000-8000-0000000000b1'`,
      );
    }
  });

  it('leaves a schema another process works on to it and shows it busy', async () => {
    const holder = new PgClient({ connectionString: databaseUrl(db) });
    await holder.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(${BACKGROUND_LOCK}, hashtext('public'))`);
      const before = await withoutCompany();
      const view = await runMigrationJob(t, root, '/api/platform/clients/migrate', 60_000);
      expect(view.clients[0]).toMatchObject({
        status: 'done',
        backgroundSkipped: 'busy',
        backgroundMigrations: [{ schema: 'public', name: NAME, rowsDone: 0, done: false }],
      });
      expect(await withoutCompany()).toBe(before);
    } finally {
      await holder.end();
    }
  });

  it("runs the master database's own at start (it runs the client migration set too)", async () => {
    await until('the master database to record its background migrations', async () => {
      const rows = await sql(
        t.masterDatabase,
        `SELECT 1 FROM background_migrations WHERE name = $1 AND finished_at IS NOT NULL`,
        [NAME],
      );
      return rows.length === 1;
    });
  });

  it('runs them in every sandbox schema too, each walking its own rows', async () => {
    const created = await t
      .http()
      .post('/sandboxes')
      .set({ 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` })
      .send({ name: 'QA' });
    expect(created.status).toBe(201);
    await sql(
      db,
      `INSERT INTO sandbox_qa.audit_logs (action, entity_type, user_id, message)
       SELECT 'ACCESS', 'Unit', $1, 'sandbox entry ' || g FROM generate_series(1, 1200) g`,
      [user.id],
    );
    const view = await runMigrationJob(t, root, '/api/platform/clients/migrate', 60_000);
    expect(view.clients[0]).toMatchObject({ status: 'done' });
    expect(view.clients[0].backgroundMigrations).toEqual([
      { schema: 'public', name: NAME, rowsDone: expect.any(Number), done: true },
      { schema: 'sandbox_qa', name: NAME, rowsDone: expect.any(Number), done: true },
    ]);
    expect(view.clients[0].backgroundMigrations[1].rowsDone).toBeGreaterThanOrEqual(1200);
    const [left] = await sql<{ n: string }>(
      db,
      'SELECT count(*) AS n FROM sandbox_qa.audit_logs WHERE user_id = $1 AND company_id IS NULL',
      [user.id],
    );
    expect(Number(left.n)).toBe(0);
    const [progress] = await sql<{ finished: boolean }>(
      db,
      'SELECT finished_at IS NOT NULL AS finished FROM sandbox_qa.background_migrations WHERE name = $1',
      [NAME],
    );
    expect(progress).toEqual({ finished: true });
  });
});
