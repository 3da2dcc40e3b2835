import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { clientDatabase, sql } from '../../test/support/pg';
import {
  buildPreviousRelease,
  REPO_ROOT,
  RunningRelease,
  startApi,
} from '../../test/support/previous-release';
import { codeFromMail, SmtpSink } from '../../test/support/smtp-sink';
import { SUPER_ADMIN } from '../../test/support/test-app';
import { ADMIN_URL, databaseUrl, REDIS_URL, runPrefix } from '../../test/support/test-env';
import { BENCH_SECRETS, fmt, runAlone } from '../bench-env';
import { cloneDatabase } from '../tenants/fleet';

const CLIENTS = Number(process.env.BENCH_UPGRADE_CLIENTS ?? 200);
/** Paced requests a second, over every client in turn; one in WRITE_EVERY is a write. */
const RATE = Number(process.env.BENCH_UPGRADE_RATE ?? 100);
const WRITE_EVERY = 4;
const WARM_S = Number(process.env.BENCH_UPGRADE_WARM_S ?? 5);
const SIDE_BY_SIDE_S = Number(process.env.BENCH_UPGRADE_SIDE_BY_SIDE_S ?? 10);
const AFTER_S = Number(process.env.BENCH_UPGRADE_AFTER_S ?? 5);
/** The current release's processes may serve during the migrate-all job (to show what that costs). */
const SERVE_DURING_JOB = process.env.BENCH_UPGRADE_SERVE_DURING_JOB === '1';
/** The API as `npm run bench` compiled it beside this file: the current release. */
const CURRENT_MAIN = join(__dirname, '..', '..', 'src', 'main.js');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (since: number) => (Date.now() - since) / 1000;

type Release = 'previous' | 'current';
type Phase = 'before' | 'current starts' | 'migration' | 'side by side' | 'after';

interface Sample {
  release: Release;
  client: string;
  phase: Phase;
  status: number;
  ms: number;
}

interface Target {
  release: Release;
  api: RunningRelease;
}

/** The fields of the answers the drill reads (sign-in, client, migration job and status). */
interface Answer {
  jwt: string;
  data: { id: number; status: string; jobId: string; counts: Record<string, number> };
  totalClients: number;
  clientsWithPendingMigrations: number;
}

async function call(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  const json = (text ? JSON.parse(text) : {}) as Answer;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return json;
}

const signIn = async (base: string, identifier: string, password: string, client?: string) =>
  (
    await call(base, 'POST', '/auth/local', client ? { 'X-Client-ID': client } : {}, {
      identifier,
      password,
    })
  ).jwt;

/** The first client, provisioned through the previous release's API as an operator would. */
async function provisionFirst(base: string, sink: SmtpSink, identifier: string) {
  const root = { Authorization: `Bearer ${await signIn(base, SUPER_ADMIN.email, SUPER_ADMIN.password)}` };
  const email = `admin@${identifier}.test`;
  const created = await call(base, 'POST', '/api/platform/clients', root, {
    identifier,
    name: identifier,
    contactEmail: email,
  });
  const id = created.data.id;
  await call(base, 'POST', `/api/platform/clients/${id}/provision`, root);
  for (let i = 0; ; i++) {
    const client = await call(base, 'GET', `/api/platform/clients/${id}`, root);
    if (client.data.status === 'ACTIVE') break;
    if (i > 300) throw new Error(`client ${identifier} not ACTIVE: ${client.data.status}`);
    await sleep(100);
  }
  const mail = await sink.waitFor(email, (m) => m.text.includes('code='));
  const password = 'Adm1n-password!';
  await call(
    base,
    'POST',
    '/auth/reset-password',
    { 'X-Client-ID': identifier },
    {
      code: codeFromMail(mail),
      password,
      passwordConfirmation: password,
    },
  );
  return { id, email, password };
}

/** The other clients, cloned from the first one's database and registered beside it. */
async function cloneClients(master: string, first: string, count: number): Promise<string[]> {
  const template = clientDatabase(master, first);
  const [row] = await sql<Record<string, unknown>>(master, 'SELECT * FROM clients WHERE identifier = $1', [
    first,
  ]);
  const identifiers = [first];
  for (let i = 1; i < count; i++) {
    const identifier = `${first.replace(/-0$/, '')}-${i}`;
    const db = clientDatabase(master, identifier);
    await cloneDatabase(master, template, db);
    await sql(
      master,
      `INSERT INTO clients (identifier, company_name, contact_email, database_host, database_port, database_name, database_username, database_password, server_id, status, max_users, max_sandboxes, provisioned_at)
       VALUES ($1, $1, $2, $3, $4, $5, $6, $7, $8, 'ACTIVE', 50, 3, now())`,
      [
        identifier,
        row.contact_email,
        row.database_host,
        row.database_port,
        db,
        row.database_username,
        row.database_password,
        row.server_id,
      ],
    );
    identifiers.push(identifier);
  }
  return identifiers;
}

/**
 * Longest wait of a client's sessions on a lock, per client database, sampled from pg_stat_activity
 * every 50 ms (the migrator's own sessions left out): how long a request stood behind a migration.
 */
function sampleLockWaits(databases: Map<string, string>) {
  const longest = new Map<string, number>();
  let stopped = false;
  const pg = new Client({ connectionString: ADMIN_URL });
  const done = (async () => {
    await pg.connect();
    while (!stopped) {
      const { rows } = await pg.query<{ datname: string; ms: number }>(
        `SELECT datname, max(extract(epoch FROM clock_timestamp() - query_start) * 1000)::float8 AS ms
           FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND datname = ANY($1) AND application_name <> 'svc-platform:migrator'
          GROUP BY datname`,
        [[...databases.keys()]],
      );
      for (const { datname, ms } of rows) {
        const client = databases.get(datname)!;
        longest.set(client, Math.max(longest.get(client) ?? 0, ms));
      }
      await sleep(50);
    }
    await pg.end();
  })();
  return {
    longest,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

/**
 * Rolling upgrade from the previous release (release/previous) to this one, under load: the
 * previous release serves BENCH_UPGRADE_CLIENTS clients (200) under paced reads and writes of units;
 * a process of the current release starts (its master migrations run) and runs the migrate-all job
 * (POST /api/platform/clients/migrate) while the previous one serves; then both serve side by side;
 * then the previous one is taken out of rotation and stopped. Prints the 5xx per release, the
 * acknowledged writes against the stored ones, and each client's longest wait behind a lock.
 */
export async function main(): Promise<void> {
  const built = await buildPreviousRelease();
  const sink = await new SmtpSink().start();
  const master = `${runPrefix()}_upg`;
  await sql('postgres', `CREATE DATABASE "${master}"`);
  const admin = new URL(ADMIN_URL);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    ...BENCH_SECRETS,
    DATABASE_URL: databaseUrl(master),
    REDIS_URL,
    REDIS_PREFIX: master,
    MULTITENANCY_DB_HOST: admin.hostname,
    MULTITENANCY_DB_PORT: admin.port || '5432',
    MULTITENANCY_DB_PREFIX: `${master}_`,
    // As deployed: client databases are migrated by the migration job, not at a process's start.
    MULTITENANCY_DATABASE_AUTO_MIGRATE: 'false',
    BOOTSTRAP_ADMIN_EMAIL: SUPER_ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN.password,
    SMTP_URL: sink.url,
    CLIENT_CACHE_REFRESH_MS: '2000',
    // Two releases side by side stay under a default server's 100 connections.
    TENANT_CONNECTION_CEILING: process.env.BENCH_UPGRADE_CONNECTION_CEILING ?? '30',
    STORAGE_DIR: join(tmpdir(), master),
    BACKUP_SCHEDULE: '',
    BACKUP_DIR: join(tmpdir(), `${master}-backups`),
    AUTH_LOGIN_LIMIT_PER_IDENTIFIER: '1000000',
    AUTH_LOGIN_LIMIT_PER_ADDRESS: '1000000',
    AUTH_PUBLIC_LIMIT_PER_ADDRESS: '1000000',
  };
  const started: RunningRelease[] = [];
  try {
    const previous = await startApi(built.main, built.tree, env);
    started.push(previous);
    const setupStarted = Date.now();
    const first = await provisionFirst(previous.baseUrl, sink, 'upg-0');
    const identifiers = await cloneClients(master, 'upg-0', CLIENTS);
    await sleep(2500); // the registry's refresh picks up the clones
    const tokens = new Map<string, string>();
    for (const id of identifiers)
      tokens.set(id, await signIn(previous.baseUrl, first.email, first.password, id));
    const databases = new Map(identifiers.map((id) => [clientDatabase(master, id), id]));
    console.log(
      `\nRolling upgrade ${built.sha.slice(0, 12)} → this build: ${CLIENTS} clients (made in ${fmt(seconds(setupStarted), 0)} s), ${RATE} req/s paced, one in ${WRITE_EVERY} a write`,
    );

    // The load balancer's rotation, and the paced load over it.
    let rotation: Target[] = [{ release: 'previous', api: previous }];
    let phase: Phase = 'before';
    const samples: Sample[] = [];
    const acknowledged = new Map<string, Set<string>>(identifiers.map((id) => [id, new Set()]));
    const unanswered = new Map<string, Set<string>>(identifiers.map((id) => [id, new Set()]));
    let running = true;
    const inFlight = new Set<Promise<void>>();
    const load = (async () => {
      const start = performance.now();
      for (let i = 0; running; i++) {
        const planned = start + (i * 1000) / RATE;
        const wait = planned - performance.now();
        if (wait > 1) await sleep(wait);
        const client = identifiers[i % identifiers.length];
        const target = rotation[i % rotation.length];
        const write = i % WRITE_EVERY === 0;
        const name = `drill-${i}`;
        const headers = { 'X-Client-ID': client, Authorization: `Bearer ${tokens.get(client)}` };
        const at = phase;
        const sent = fetch(`${target.api.baseUrl}/api/units${write ? '' : '?page=1&pageSize=5'}`, {
          method: write ? 'POST' : 'GET',
          headers: write ? { ...headers, 'Content-Type': 'application/json' } : headers,
          body: write ? JSON.stringify({ name, status: 'OPERATIONAL' }) : undefined,
        })
          .then(async (res) => {
            await res.arrayBuffer();
            return res.status;
          })
          .catch(() => 0)
          .then((status) => {
            samples.push({
              release: target.release,
              client,
              phase: at,
              status,
              ms: performance.now() - planned,
            });
            if (!write) return;
            if (status === 201) acknowledged.get(client)!.add(name);
            else if (status === 0 || status >= 500) unanswered.get(client)!.add(name);
          });
        inFlight.add(sent);
        void sent.finally(() => inFlight.delete(sent));
      }
    })();

    await sleep(WARM_S * 1000);
    const locks = sampleLockWaits(databases);
    const currentStarted = Date.now();
    phase = 'current starts';
    const current = await startApi(CURRENT_MAIN, REPO_ROOT, env);
    started.push(current);
    console.log(
      `  current release started (its master migrations ran) in : ${fmt(seconds(currentStarted), 1)} s`,
    );
    if (SERVE_DURING_JOB) rotation = [...rotation, { release: 'current', api: current }];

    phase = 'migration';
    const jobStarted = Date.now();
    const root = {
      Authorization: `Bearer ${await signIn(current.baseUrl, SUPER_ADMIN.email, SUPER_ADMIN.password)}`,
    };
    const job = await call(current.baseUrl, 'POST', '/api/platform/clients/migrate', root);
    let counts: Record<string, number> = {};
    for (;;) {
      const view = await call(current.baseUrl, 'GET', `/api/platform/migrations/${job.data.jobId}`, root);
      counts = view.data.counts;
      if (view.data.status === 'finished') break;
      if (seconds(jobStarted) > 1800) throw new Error('the migrate-all job did not finish in 30 min');
      await sleep(200);
    }
    const jobSeconds = seconds(jobStarted);
    const status = await call(current.baseUrl, 'GET', '/api/platform/clients/migration-status', root);
    console.log(
      `  migrate-all job on the current release                  : ${fmt(jobSeconds, 1)} s (${counts.done} done, ${counts.failed} failed, ${counts.migrated} migrated); behind afterwards: ${status.clientsWithPendingMigrations} of ${status.totalClients}`,
    );

    phase = 'side by side';
    if (!SERVE_DURING_JOB) rotation = [...rotation, { release: 'current', api: current }];
    await sleep(SIDE_BY_SIDE_S * 1000);

    // Out of rotation first (as endpoints are removed before the pod is told to stop), then stopped.
    phase = 'after';
    rotation = rotation.filter((t) => t.release === 'current');
    await sleep(1000);
    const stopCode = await previous.stop();
    await sleep(AFTER_S * 1000);
    running = false;
    await load;
    await Promise.all([...inFlight]);
    await locks.stop();

    report(samples, identifiers, locks.longest, stopCode);
    await verifyWrites(master, identifiers, acknowledged, unanswered);
  } finally {
    await Promise.all(started.map((api) => api.stop(5000)));
    await sink.stop();
    for (const dir of [env.STORAGE_DIR!, env.BACKUP_DIR!]) rmSync(dir, { recursive: true, force: true });
  }
}

function report(
  samples: Sample[],
  identifiers: string[],
  lockWaits: Map<string, number>,
  stopCode: number | null,
) {
  console.log(`  previous release stopped (SIGTERM), exit code           : ${stopCode}`);
  console.log('\n  answers per release and phase (5xx expected 0; 0 = no answer):');
  for (const release of ['previous', 'current'] as Release[]) {
    for (const phase of ['before', 'current starts', 'migration', 'side by side', 'after'] as Phase[]) {
      const mine = samples.filter((s) => s.release === release && s.phase === phase);
      if (!mine.length) continue;
      const fivexx = mine.filter((s) => s.status >= 500).length;
      const none = mine.filter((s) => s.status === 0).length;
      const other = mine.filter(
        (s) => s.status !== 0 && (s.status < 200 || s.status >= 300) && s.status < 500,
      );
      const sorted = mine.map((s) => s.ms).sort((a, b) => a - b);
      const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
      console.log(
        `    ${release.padEnd(8)} ${phase.padEnd(14)}: ${String(mine.length).padStart(6)} requests, 5xx ${fivexx}, no answer ${none}, other non-2xx ${other.length}, p99 ${fmt(p99, 0)} ms, max ${fmt(sorted[sorted.length - 1], 0)} ms`,
      );
    }
    const all = samples.filter((s) => s.release === release);
    const codes = new Map<number, number>();
    for (const s of all) if (s.status >= 500) codes.set(s.status, (codes.get(s.status) ?? 0) + 1);
    console.log(
      `    ${release.padEnd(8)} ${'total 5xx'.padEnd(14)}: ${[...codes.values()].reduce((a, b) => a + b, 0)}${[...codes].map(([c, n]) => ` (${c} × ${n})`).join('')}`,
    );
  }

  // Each client's longest wait behind a lock: sampled on the server, and the slowest paced request
  // to it while the migration ran (from its planned start, so a queue in front of it counts too).
  const during = new Map<string, number>();
  for (const s of samples) {
    if (s.phase !== 'migration') continue;
    during.set(s.client, Math.max(during.get(s.client) ?? 0, s.ms));
  }
  const rows = identifiers
    .map((client) => ({ client, lock: lockWaits.get(client) ?? 0, slowest: during.get(client) ?? NaN }))
    .sort((a, b) => b.lock - a.lock || b.slowest - a.slowest);
  console.log(
    '\n  longest wait behind a lock per client, worst first (pg_stat_activity every 50 ms; slowest request during the job):',
  );
  for (const row of rows.slice(0, 10)) {
    console.log(
      `    ${row.client.padEnd(12)} lock ${fmt(row.lock, 0).padStart(6)} ms, slowest request ${fmt(row.slowest, 0).padStart(6)} ms`,
    );
  }
  const locks = rows.map((r) => r.lock).sort((a, b) => a - b);
  const slow = rows
    .map((r) => r.slowest)
    .filter((n) => !Number.isNaN(n))
    .sort((a, b) => a - b);
  const at = (list: number[], q: number) =>
    list[Math.min(list.length - 1, Math.floor(list.length * q))] ?? NaN;
  console.log(
    `    summary over ${rows.length} clients: lock waits seen on ${locks.filter((n) => n > 0).length}, median ${fmt(at(locks, 0.5), 0)} ms, p95 ${fmt(at(locks, 0.95), 0)} ms, max ${fmt(at(locks, 1), 0)} ms; slowest request median ${fmt(at(slow, 0.5), 0)} ms, max ${fmt(at(slow, 1), 0)} ms`,
  );
}

async function verifyWrites(
  master: string,
  identifiers: string[],
  acknowledged: Map<string, Set<string>>,
  unanswered: Map<string, Set<string>>,
) {
  let acked = 0;
  let lost = 0;
  let storedUnacknowledged = 0;
  for (const client of identifiers) {
    const rows = await sql<{ name: string }>(
      clientDatabase(master, client),
      "SELECT name FROM units WHERE name LIKE 'drill-%'",
    );
    const stored = new Set(rows.map((r) => r.name));
    for (const name of acknowledged.get(client)!) {
      acked++;
      if (!stored.has(name)) lost++;
    }
    for (const name of unanswered.get(client)!) if (stored.has(name)) storedUnacknowledged++;
  }
  console.log(
    `\n  writes: ${acked} acknowledged (201), ${acked - lost} of them stored, ${lost} lost (expected 0); ${storedUnacknowledged} stored without an acknowledgement (a 5xx or no answer)`,
  );
}

if (require.main === module) runAlone(main);
