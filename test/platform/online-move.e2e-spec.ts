import { Client } from 'pg';
import { ReplicationRepository } from '../../src/database/replication.repository';
import { OwnPostgres, OwnRedis } from '../operations/own-services';
import { Receiver } from '../webhooks/receiver';
import { sql } from '../support/pg';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, superAdminToken, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rows of about 450 bytes: `mb` megabytes of units written straight into the client's database. */
async function ballast(pg: OwnPostgres, database: string, mb: number) {
  const rows = Math.round((mb * 1024 * 1024) / 450);
  await pg.query(
    database,
    `INSERT INTO public.units (name, location, code)
     SELECT 'ballast ' || g || ' ' || repeat('x', 180), repeat('y', 200), 'B' || g FROM generate_series(1, ${rows}) g`,
  );
}

/**
 * Online moves between two PostgreSQL clusters of the test's own, both with wal_level=logical,
 * under writes through two replicas: the data is copied while the client writes, and writes are
 * refused only while the move switches.
 */
describe('online moves: logical replication, a pause under a second', () => {
  const one = new OwnPostgres({ wal_level: 'logical' });
  const two = new OwnPostgres({ wal_level: 'logical' });
  const sink = new SmtpSink();
  const deaf = new OwnRedis();
  const receiver = new Receiver();
  let a: TestApp;
  let b: TestApp;
  /** A replica with a Redis of its own: it never hears that a client moved. */
  let c: TestApp;
  let root: string;
  let oneId: number;
  let twoId: number;
  let omega: ProvisionedClient;
  const env = () => ({
    SMTP_URL: sink.url,
    CLIENT_MOVE_SOURCE_GRACE_MS: '60000',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  const platform = (t: TestApp, method: 'get' | 'post', path: string) =>
    t.http()[method](`/api/platform${path}`).set('Authorization', `Bearer ${root}`);
  const register = async (name: string, pg: OwnPostgres) => {
    const created = await platform(a, 'post', '/database-servers').send({
      name,
      host: '127.0.0.1',
      port: pg.port,
      adminUsername: 'postgres',
      maxClients: 10,
    });
    expect(created.status).toBe(201);
    return created.body.data.id as number;
  };
  const databaseOf = async (id: number) =>
    (
      await sql<{ name: string }>(
        a.masterDatabase,
        'SELECT database_name AS name FROM clients WHERE id = $1',
        [id],
      )
    )[0].name;

  beforeAll(async () => {
    await Promise.all([one.create(), two.create(), sink.start(), deaf.start(), receiver.start()]);
    a = await bootApp({ env: env() });
    b = await bootApp({ masterDatabase: a.masterDatabase, env: env() });
    root = await superAdminToken(a);
    oneId = await register('one', one);
    twoId = await register('two', two);
    omega = await provisionClient(a, sink, 'omega', { serverId: oneId });
    const hook = await a
      .http()
      .post('/api/admin/webhooks')
      .set({ 'X-Client-ID': 'omega', Authorization: `Bearer ${omega.adminToken}` })
      .send({ name: 'Units', url: receiver.url('/omega'), events: ['unit.created'] });
    expect(hook.status).toBe(201);
    c = await bootApp({
      masterDatabase: a.masterDatabase,
      env: {
        ...env(),
        REDIS_URL: deaf.url,
        CLIENT_CACHE_REFRESH_MS: '600000',
        QUEUE_PROCESSORS_ENABLED: 'false',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await c?.close();
    await b?.close();
    await a?.close();
    await Promise.all([one.destroy(), two.destroy(), sink.stop(), deaf.stop(), receiver.stop()]);
  });

  /**
   * Moves `client` from one to two under three paced writers and two readers (replicas a and b),
   * answers what the writers saw and the job.
   */
  async function moveUnderLoad(client: ProvisionedClient, identifier: string) {
    const as = { 'X-Client-ID': identifier, Authorization: `Bearer ${client.adminToken}` };
    const acknowledged: string[] = [];
    const refusals: number[] = [];
    const refused: Record<string, number> = {};
    let writing = true;
    let reads = 0;
    const writer = async (t: TestApp, label: string) => {
      for (let i = 0; writing; i++) {
        const name = `${label}-${i}`;
        const res = await t.http().post('/api/units').set(as).send({ name });
        if (res.status === 201) acknowledged.push(name);
        else {
          const code = `${res.status} ${res.body?.error?.code}`;
          refused[code] = (refused[code] ?? 0) + 1;
          if (res.status === 503) expect(res.headers['retry-after']).toBeDefined();
          refusals.push(Date.now());
        }
        await sleep(20);
      }
    };
    const first = await a
      .http()
      .post('/api/units')
      .set(as)
      .send({ name: `${identifier} read` });
    expect(first.status).toBe(201);
    acknowledged.push(`${identifier} read`);
    const reader = async (t: TestApp) => {
      while (writing) {
        const res = await t.http().get(`/api/units/${first.body.data.id}`).set(as);
        if (res.status === 200) reads++;
        await sleep(30);
      }
    };
    const load = Promise.all([writer(a, 'a'), writer(b, 'b'), writer(a, 'c'), reader(a), reader(b)]);
    await sleep(1000);
    const started = await platform(a, 'post', `/clients/${client.id}/move`).send({ serverId: twoId });
    expect(started.status).toBe(202);
    const jobId = started.body.data.jobId as string;
    const steps = new Set<string>();
    let job: Record<string, unknown> = {};
    let schemaChange: number | undefined;
    const deadline = Date.now() + 240_000;
    while (Date.now() < deadline) {
      const res = await platform(b, 'get', `/moves/${jobId}`);
      expect(res.status).toBe(200);
      job = res.body.data;
      steps.add(job.step as string);
      if (job.status === 'done' || job.status === 'failed') break;
      if (schemaChange === undefined && job.step !== 'queued') {
        // Logical replication carries no schema change: a new custom table waits for the move.
        const res = await a
          .http()
          .post('/sandboxes')
          .set(as)
          .send({ name: `During ${identifier}` });
        schemaChange = res.status;
        if (res.status === 503) expect(res.body.error.code).toBe('CLIENT_MOVING');
      }
      await sleep(100);
    }
    await sleep(1500);
    writing = false;
    await load;
    const longestRefusal = refusals.length ? Math.max(...refusals) - Math.min(...refusals) : 0;
    return { job, jobId, steps, acknowledged, refused, longestRefusal, reads, schemaChange, as };
  }

  it('moves a 10 MB client under writes through two replicas: nothing acknowledged lost, writes refused under a second', async () => {
    const source = await databaseOf(omega.id);
    await ballast(one, source, 10);
    const { job, steps, acknowledged, refused, longestRefusal, reads, schemaChange, as } =
      await moveUnderLoad(omega, 'omega');

    expect(job).toMatchObject({ status: 'done', step: 'finished', mode: 'online', toServerId: twoId });
    expect(job.pauseMs as number).toBeLessThan(1000);
    expect(steps.has('copying') || steps.has('catching-up')).toBe(true);
    for (const code of Object.keys(refused))
      expect(code).toMatch(/^503 (CLIENT_MOVING|SERVICE_UNAVAILABLE)$/);
    expect(longestRefusal).toBeLessThan(1000);
    expect(reads).toBeGreaterThan(0);
    expect(schemaChange).toBe(503);

    const target = await databaseOf(omega.id);
    expect(target).not.toBe(source);
    const rows = await two.query<{ name: string }>(target, 'SELECT name FROM public.units');
    const stored = new Set(rows.map((r) => r.name));
    expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);
    // Sequences followed: a new unit on the target gets a fresh id.
    const created = await a.http().post('/api/units').set(as).send({ name: 'after the move' });
    expect(created.status).toBe(201);
    // Replication is gone from both sides; the former copy refuses the client's role.
    expect(await two.query(target, 'SELECT subname FROM pg_subscription')).toEqual([]);
    expect(await one.query(source, 'SELECT pubname FROM pg_publication')).toEqual([]);
    expect(await one.query('postgres', 'SELECT slot_name FROM pg_replication_slots')).toEqual([]);
    const role = (
      await sql<{ role: string }>(
        a.masterDatabase,
        'SELECT database_username AS role FROM clients WHERE id = $1',
        [omega.id],
      )
    )[0].role;
    await expect(one.query(source, 'SELECT 1', role)).rejects.toThrow(/permission denied/);

    // A replica that never heard of the switch (its own Redis) serves no read from the former copy.
    const onTarget = (
      await two.query<{ n: number }>(target, 'SELECT count(*)::int AS n FROM public.units')
    )[0].n;
    const answers: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await c.http().get('/api/units?pageSize=1').set(as);
      if (res.status === 200) {
        expect(res.body.meta.pagination.total).toBe(onTarget);
        answers.push('200');
      } else {
        expect(res.status).toBe(503);
        answers.push(`503 ${res.body.error.code}`);
      }
    }
    expect(answers[answers.length - 1]).toBe('200');

    // Every acknowledged unit's event reached the receiver (at least once), across the switch.
    const delivered = () => receiver.at('/omega').map((r) => r.raw);
    const deadlineEvents = Date.now() + 30_000;
    let missing = acknowledged;
    while (Date.now() < deadlineEvents) {
      const raws = delivered();
      missing = acknowledged.filter((name) => !raws.some((raw) => raw.includes(`"${name}"`)));
      if (!missing.length) break;
      await sleep(250);
    }
    expect(missing).toEqual([]);
    const events = delivered().length;
    console.log(
      `online move 10 MB: ${acknowledged.length} writes acknowledged, refused ${JSON.stringify(refused)}, ` +
        `pause ${job.pauseMs} ms, refusals over ${longestRefusal} ms, steps ${[...steps].join(',')}, ` +
        `job ${Date.parse(job.finishedAt as string) - Date.parse(job.startedAt as string)} ms; ` +
        `the replica that missed the switch answered ${answers.join(', ')}; ${events} events delivered ` +
        `for ${acknowledged.length + 1} units`,
    );
  }, 180_000);

  it('moves a 250 MB client the same way: the pause does not grow with the data', async () => {
    const sigma = await provisionClient(a, sink, 'sigma', { serverId: oneId });
    const source = await databaseOf(sigma.id);
    await ballast(one, source, 250);
    const { job, acknowledged, refused, longestRefusal } = await moveUnderLoad(sigma, 'sigma');
    expect(job).toMatchObject({ status: 'done', step: 'finished', mode: 'online' });
    expect(job.pauseMs as number).toBeLessThan(1000);
    expect(longestRefusal).toBeLessThan(1000);
    const target = await databaseOf(sigma.id);
    const stored = new Set(
      (
        await two.query<{ name: string }>(
          target,
          "SELECT name FROM public.units WHERE name NOT LIKE 'ballast %'",
        )
      ).map((r) => r.name),
    );
    expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);
    console.log(
      `online move 250 MB: ${acknowledged.length} writes acknowledged, refused ${JSON.stringify(refused)}, ` +
        `pause ${job.pauseMs} ms, refusals over ${longestRefusal} ms, ` +
        `job ${Date.parse(job.finishedAt as string) - Date.parse(job.startedAt as string)} ms`,
    );
  }, 300_000);

  it('the write guard refuses the client role whatever it tries: BEGIN READ WRITE, disabling triggers, replica mode', async () => {
    const database = 'guard_check';
    await one.query('postgres', `CREATE DATABASE ${database}`);
    await one.query('postgres', `CREATE ROLE guard_client LOGIN`);
    try {
      await one.query(
        database,
        `CREATE TABLE t (id serial PRIMARY KEY, v text); GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON t TO guard_client;
         GRANT USAGE ON SEQUENCE t_id_seq TO guard_client`,
      );
      await one.query(database, `INSERT INTO t (v) VALUES ('before')`, 'guard_client');
      const admin = new Client({ connectionString: one.url(database) });
      await admin.connect();
      await new ReplicationRepository().installWriteGuard(admin, 1000);
      for (const forged of [
        `BEGIN READ WRITE; INSERT INTO t (v) VALUES ('forged'); COMMIT`,
        `SET default_transaction_read_only = off; UPDATE t SET v = 'forged'`,
        `DELETE FROM t`,
        `TRUNCATE t`,
        `ALTER TABLE t DISABLE TRIGGER ALL`,
        `SET session_replication_role = replica`,
        `DROP TRIGGER _client_move_guard ON t`,
      ]) {
        await expect(one.query(database, forged, 'guard_client')).rejects.toThrow(
          /being moved|must be owner|permission denied/,
        );
      }
      expect(await one.query(database, 'SELECT v FROM t', 'guard_client')).toEqual([{ v: 'before' }]);
      await new ReplicationRepository().removeWriteGuard(admin, 1000);
      await admin.end();
      await one.query(database, `INSERT INTO t (v) VALUES ('after')`, 'guard_client');
      expect(await one.query(database, 'SELECT count(*)::int AS n FROM t')).toEqual([{ n: 2 }]);
    } finally {
      await one.query('postgres', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await one.query('postgres', `DROP ROLE IF EXISTS guard_client`);
    }
  });
});
