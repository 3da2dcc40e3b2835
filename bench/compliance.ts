import autocannon from 'autocannon';
import { Client as PgClient } from 'pg';
import { clientDatabase, sql } from '../test/support/pg';
import { SmtpSink } from '../test/support/smtp-sink';
import { bootApp, login, provisionClient, TestApp } from '../test/support/test-app';
import { databaseUrl } from '../test/support/test-env';
import { BENCH_SECRETS, fmt, withBenchRun } from './bench-env';

/** Rows of outages and of obligations (`BENCH_COMPLIANCE_ROWS`, default 100,000; small runs use ~2,000). */
const ROWS = Number(process.env.BENCH_COMPLIANCE_ROWS ?? 100_000);
const PERMITS = Math.max(10, Math.round(ROWS / 100));
/** Sequential requests per endpoint for its p95 (`BENCH_COMPLIANCE_SAMPLES`). */
const SAMPLES = Number(process.env.BENCH_COMPLIANCE_SAMPLES ?? 200);
/** Outages created concurrently (`BENCH_COMPLIANCE_CREATES`) from 50 connections. */
const CREATES = Number(process.env.BENCH_COMPLIANCE_CREATES ?? 2000);
const CONNECTIONS = 50;
const TARGET_P95_MS = 30;

/**
 * Seeds by SQL: outages over five years (about 2% ACTIVE), permits expiring from a year ago to three
 * years ahead, obligations due from a year ago to a year ahead (about 90% ACTIVE), in company 1.
 */
const SEED = [
  `INSERT INTO outage_events (title, outage_type, status, planned_start, planned_end, actual_start,
                              capacity_mw, lost_capacity_mw, approval_status, company_id, created_at)
   SELECT 'Outage ' || g,
          (ARRAY['PLANNED', 'FORCED', 'MAINTENANCE', 'EMERGENCY'])[1 + g % 4],
          CASE WHEN g % 50 = 0 THEN 'ACTIVE' WHEN g % 50 = 1 THEN 'CANCELLED' ELSE 'COMPLETED' END,
          now() - (g % 1826) * interval '1 day',
          now() - (g % 1826) * interval '1 day' + interval '3 days',
          CASE WHEN g % 7 = 0 THEN NULL ELSE now() - (g % 1826) * interval '1 day' + interval '1 hour' END,
          250, (g % 250), 'APPROVED', 1, now() - (g % 1826) * interval '1 day'
     FROM generate_series(1, $1::int) g`,
  `INSERT INTO environmental_permits (permit_number, title, permit_type, status, expiry_date, company_id)
   SELECT 'BP-' || g, 'Permit ' || g, (ARRAY['AIR', 'WATER', 'WASTE', 'NOISE'])[1 + g % 4],
          CASE WHEN g % 10 = 0 THEN 'SUSPENDED' ELSE 'ACTIVE' END,
          now() + ((g * 37) % 1461 - 365) * interval '1 day', 1
     FROM generate_series(1, $1::int) g`,
  `INSERT INTO compliance_obligations (permit_id, title, obligation_type, status, frequency, next_due_date, company_id)
   SELECT (SELECT min(id) FROM environmental_permits) + g % $2::int, 'Obligation ' || g,
          (ARRAY['REPORTING', 'MONITORING', 'INSPECTION', 'TESTING', 'FILING'])[1 + g % 5],
          CASE WHEN g % 10 = 0 THEN 'COMPLETED' ELSE 'ACTIVE' END,
          (ARRAY['MONTHLY', 'QUARTERLY', 'ANNUAL', 'ONE_TIME'])[1 + g % 4],
          now() + ((g * 53) % 730 - 365) * interval '1 day', 1
     FROM generate_series(1, $1::int) g`,
  'VACUUM ANALYZE outage_events',
  'VACUUM ANALYZE environmental_permits',
  'VACUUM ANALYZE compliance_obligations',
];

interface Endpoint {
  name: string;
  path: string;
  /** The same rows straight from PostgreSQL: the bare baseline. */
  bare: string;
}

const page = 'LIMIT 25';
const ENDPOINTS: Endpoint[] = [
  {
    name: 'outages, default sort',
    path: '/api/outages',
    bare: `SELECT *, count(*) OVER () FROM outage_events WHERE company_id = 1 AND deleted_at IS NULL ORDER BY id DESC ${page}`,
  },
  {
    name: 'outages, by plannedStart',
    path: '/api/outages?sort=plannedStart&order=DESC',
    bare: `SELECT *, count(*) OVER () FROM outage_events WHERE company_id = 1 AND deleted_at IS NULL ORDER BY planned_start DESC, id DESC ${page}`,
  },
  {
    name: 'outages/active',
    path: '/api/outages/active',
    bare: `SELECT *, count(*) OVER () FROM outage_events WHERE company_id = 1 AND status = 'ACTIVE' AND deleted_at IS NULL ORDER BY actual_start DESC NULLS LAST, id DESC ${page}`,
  },
  {
    name: 'obligations, default sort',
    path: '/api/compliance-obligations',
    bare: `SELECT *, count(*) OVER () FROM compliance_obligations WHERE company_id = 1 ORDER BY id DESC ${page}`,
  },
  {
    name: 'obligations, by nextDueDate',
    path: '/api/compliance-obligations?sort=nextDueDate&order=ASC',
    bare: `SELECT *, count(*) OVER () FROM compliance_obligations WHERE company_id = 1 ORDER BY next_due_date, id ${page}`,
  },
  {
    name: 'compliance-obligations/overdue',
    path: '/api/compliance-obligations/overdue',
    bare: `SELECT *, count(*) OVER () FROM compliance_obligations WHERE company_id = 1 AND status IN ('ACTIVE', 'OVERDUE') AND next_due_date < now() ORDER BY next_due_date, id DESC ${page}`,
  },
  {
    name: 'permits/expiring',
    path: '/api/permits/expiring',
    bare: `SELECT *, count(*) OVER () FROM environmental_permits WHERE company_id = 1 AND status = 'ACTIVE' AND expiry_date BETWEEN now() AND now() + interval '90 days' ORDER BY expiry_date, id DESC ${page}`,
  },
];

const p95 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.ceil(ms.length * 0.95) - 1];

async function timed(work: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** A MANAGER of company 1, so that the lists are company-scoped as for most callers. */
async function managerToken(t: TestApp, adminToken: string): Promise<string> {
  const headers = { 'X-Client-ID': 'cbench', Authorization: `Bearer ${adminToken}` };
  const roles = await t.http().get('/api/admin/roles').set(headers);
  const roleId = roles.body.data.find((r: { type: string }) => r.type === 'MANAGER').id;
  const user = { email: 'manager@cbench.test', password: 'Manager-password-1' };
  const made = await t
    .http()
    .post('/api/admin/users')
    .set(headers)
    .send({ ...user, roleId, companyId: 1 });
  if (made.status !== 201) throw new Error(`manager: ${made.status} ${JSON.stringify(made.body)}`);
  return login(t, user.email, user.password, 'cbench');
}

/**
 * Outages and compliance listings with ROWS outages and obligations in one client: p95 of each list
 * (sequential requests as a company-scoped MANAGER) beside the same query sent straight to
 * PostgreSQL, then CREATES outages created from 50 connections, checking no outageNumber repeats.
 */
export async function main(): Promise<void> {
  const sink = await new SmtpSink().start();
  const t = await bootApp({ env: { SMTP_URL: sink.url, ...BENCH_SECRETS, LOG_LEVEL: 'error' } });
  try {
    const client = await provisionClient(t, sink, 'cbench');
    const db = clientDatabase(t.masterDatabase, 'cbench');
    const seedStart = Date.now();
    const params = [[ROWS], [PERMITS], [ROWS, PERMITS]];
    for (const [i, statement] of SEED.entries()) await sql(db, statement, params[i] ?? []);
    const token = await managerToken(t, client.adminToken);
    const headers = { 'X-Client-ID': 'cbench', Authorization: `Bearer ${token}` };
    const direct = new PgClient({ connectionString: databaseUrl(db) });
    await direct.connect();
    console.log(
      `\nCompliance: ${ROWS} outages, ${ROWS} obligations, ${PERMITS} permits (seeded in ${fmt((Date.now() - seedStart) / 1000)} s); p95 of ${SAMPLES} sequential requests`,
    );
    try {
      for (const e of ENDPOINTS) {
        const app: number[] = [];
        const bare: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          app.push(
            await timed(async () => {
              const res = await t.http().get(e.path).set(headers);
              if (res.status !== 200) throw new Error(`${e.path} answered ${res.status}`);
            }),
          );
          bare.push(await timed(async () => void (await direct.query(e.bare))));
        }
        const [a, b] = [p95(app), p95(bare)];
        console.log(
          `  ${e.name.padEnd(32)}: p95 ${fmt(a, 1)} ms (bare SQL ${fmt(b, 1)} ms, ratio ${fmt(a / Math.max(b, 0.01), 1)}; target < ${TARGET_P95_MS} ms: ${a < TARGET_P95_MS ? 'met' : 'NOT met'})`,
        );
      }
    } finally {
      await direct.end();
    }

    const url = `${await appUrl(t)}/api/outages`;
    const before = Number((await sql<{ n: string }>(db, 'SELECT count(*) AS n FROM outage_events'))[0].n);
    const result = await autocannon({
      url,
      method: 'POST',
      connections: CONNECTIONS,
      amount: CREATES,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Concurrent', outageType: 'FORCED' }),
    });
    const [{ n, distinct }] = await sql<{ n: string; distinct: string }>(
      db,
      'SELECT count(*) AS n, count(DISTINCT outage_number) AS distinct FROM outage_events',
    );
    const created = Number(n) - before;
    const unique = Number(n) === Number(distinct);
    console.log(
      `  concurrent creation             : ${created} outages from ${CONNECTIONS} connections (non-2xx ${result.non2xx}), ${fmt(result.requests.average, 0)} req/s; outageNumber repeated: ${unique ? 'never' : 'YES'}`,
    );
    if (!unique) throw new Error('outageNumber repeated under concurrent creation');
  } finally {
    await t.close();
    await sink.stop();
  }
}

async function appUrl(t: TestApp): Promise<string> {
  const address = t.app.getHttpServer().address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

if (require.main === module) {
  void withBenchRun(main).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
