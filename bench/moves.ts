/**
 * Client moves against the database's size: for each size of BENCH_MOVE_MB (default 10,250; add
 * 1000 where the disk allows) a client of that size on one PostgreSQL cluster of the bench's own
 * is moved to another, once by copy and once online, while three paced writers (every 20 ms) and
 * a reader call it. Prints each move's duration, how long writes were refused (first to last
 * refusal the writers saw, and the move's own pauseMs) and the online pause beside the copy's.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/moves.js
 *
 * Both clusters run with wal_level=logical (fsync off, like the tests'); the data are units rows
 * of about 450 bytes written straight into the client's database.
 */
import { Client } from 'pg';
import { OwnPostgres } from '../test/operations/own-services';
import { SmtpSink } from '../test/support/smtp-sink';
import { bootApp, provisionClient, superAdminToken, TestApp } from '../test/support/test-app';
import { fmt, runAlone } from './bench-env';

const SIZES = (process.env.BENCH_MOVE_MB ?? '10,250').split(',').map(Number);
const MODES = ['copy', 'online'] as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  jobSeconds: number;
  pauseMs: number;
  refusedMs: number;
  refused: number;
  acknowledged: number;
}

async function onCluster(pg: OwnPostgres, database: string, text: string) {
  const client = new Client({ connectionString: pg.url(database) });
  await client.connect();
  try {
    return (await client.query(text)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

async function moveOnce(
  t: TestApp,
  sink: SmtpSink,
  root: string,
  servers: { one: OwnPostgres; oneId: number; twoId: number },
  megabytes: number,
  mode: (typeof MODES)[number],
): Promise<Outcome> {
  const identifier = `mv${megabytes}${mode[0]}${Date.now().toString(36).slice(-4)}`;
  const client = await provisionClient(t, sink, identifier, { serverId: servers.oneId });
  const [{ database }] = await onCluster(
    servers.one,
    'postgres',
    `SELECT datname AS database FROM pg_database WHERE datname LIKE '%\\_${identifier}'`,
  );
  const rows = Math.round((megabytes * 1024 * 1024) / 450);
  await onCluster(
    servers.one,
    database as string,
    `INSERT INTO public.units (name, location, code)
     SELECT 'ballast ' || g || ' ' || repeat('x', 180), repeat('y', 200), 'B' || g FROM generate_series(1, ${rows}) g`,
  );
  await onCluster(servers.one, database as string, 'VACUUM ANALYZE public.units');
  const as = { 'X-Client-ID': identifier, Authorization: `Bearer ${client.adminToken}` };
  const refusals: number[] = [];
  let acknowledged = 0;
  let writing = true;
  const writer = async (label: string) => {
    for (let i = 0; writing; i++) {
      const res = await t
        .http()
        .post('/api/units')
        .set(as)
        .send({ name: `${label}-${i}` });
      if (res.status === 201) acknowledged++;
      else refusals.push(Date.now());
      await sleep(20);
    }
  };
  const reader = async () => {
    while (writing) {
      await t.http().get('/api/units?pageSize=1').set(as);
      await sleep(30);
    }
  };
  const load = Promise.all([writer('a'), writer('b'), writer('c'), reader()]);
  await sleep(1000);
  const started = await t
    .http()
    .post(`/api/platform/clients/${client.id}/move`)
    .set('Authorization', `Bearer ${root}`)
    .send({ serverId: servers.twoId, mode });
  if (started.status !== 202) throw new Error(`move: ${started.status} ${JSON.stringify(started.body)}`);
  let job: Record<string, unknown> = {};
  for (;;) {
    const res = await t
      .http()
      .get(`/api/platform/moves/${started.body.data.jobId}`)
      .set('Authorization', `Bearer ${root}`);
    job = res.body.data;
    if (job.status === 'done' || job.status === 'failed') break;
    await sleep(100);
  }
  await sleep(1000);
  writing = false;
  await load;
  if (job.status !== 'done') throw new Error(`the ${mode} move of ${megabytes} MB failed: ${job.error}`);
  return {
    jobSeconds: (Date.parse(job.finishedAt as string) - Date.parse(job.startedAt as string)) / 1000,
    pauseMs: job.pauseMs as number,
    refusedMs: refusals.length ? Math.max(...refusals) - Math.min(...refusals) : 0,
    refused: refusals.length,
    acknowledged,
  };
}

export async function main() {
  const one = await new OwnPostgres({ wal_level: 'logical' }).create();
  const two = await new OwnPostgres({ wal_level: 'logical' }).create();
  const sink = await new SmtpSink().start();
  const t = await bootApp({
    env: { SMTP_URL: sink.url, CLIENT_MOVE_SOURCE_GRACE_MS: '1000', LOG_LEVEL: 'warn' },
  });
  try {
    const root = await superAdminToken(t);
    const register = async (name: string, pg: OwnPostgres) => {
      const res = await t
        .http()
        .post('/api/platform/database-servers')
        .set('Authorization', `Bearer ${root}`)
        .send({ name, host: '127.0.0.1', port: pg.port, adminUsername: 'postgres', maxClients: 100 });
      if (res.status !== 201) throw new Error(`register ${name}: ${res.status}`);
      return res.body.data.id as number;
    };
    const servers = { one, oneId: await register('one', one), twoId: await register('two', two) };
    for (const megabytes of SIZES) {
      const outcomes = new Map<string, Outcome>();
      for (const mode of MODES) {
        const o = await moveOnce(t, sink, root, servers, megabytes, mode);
        outcomes.set(mode, o);
        console.log(
          `moves ${megabytes} MB ${mode}: job ${fmt(o.jobSeconds, 2)} s, writes refused over ${o.refusedMs} ms ` +
            `(${o.refused} refusals, ${o.acknowledged} acknowledged), pauseMs ${o.pauseMs}`,
        );
      }
      const copy = outcomes.get('copy')!;
      const online = outcomes.get('online')!;
      console.log(
        `moves ${megabytes} MB: online pause ${online.pauseMs} ms beside copy ${copy.pauseMs} ms ` +
          `(ratio ${fmt(online.pauseMs / copy.pauseMs, 3)}); online job ${fmt(online.jobSeconds, 2)} s beside copy ` +
          `${fmt(copy.jobSeconds, 2)} s (ratio ${fmt(online.jobSeconds / copy.jobSeconds, 2)})`,
      );
    }
  } finally {
    await t.close();
    await sink.stop();
    await Promise.all([one.destroy(), two.destroy()]);
  }
}

if (require.main === module) runAlone(main);
