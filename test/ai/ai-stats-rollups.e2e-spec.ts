import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { AiExchangeRollups1734400000000 } from '../../migrations/client/1734400000000-AiExchangeRollups';
import { EXCHANGE_STORE, Exchange, ExchangeStore } from '../../src/ai/log/exchange';
import { runAsTenant } from '../../src/tenancy/tenant-jobs';
import { createUser, loginFull } from '../identity/identity-helpers';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { databaseUrl } from '../support/test-env';
import { exchangeRows, percentileCont } from './ai-helpers';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- rows as PostgreSQL returns them

const ORIGIN = Date.parse('2000-01-01T00:00:00Z');
const FIRST = Date.parse('2025-03-10T08:00:00Z');
const EXCHANGES = 600;
/** 46 hours of exchanges, 276 s apart: whole hours and days, and parts of them, in every range below. */
const SPACING_S = 276;

/** p95 as percentile_cont, with each value replaced by the middle of its 2 % latency bucket. */
function bucketedP95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (v: number) => (v <= 0 ? 0 : (2 * 1.02 ** Math.ceil(Math.log(v) / Math.log(1.02))) / 2.02);
  const rank = 0.95 * (sorted.length - 1);
  const lo = middle(sorted[Math.floor(rank)]);
  return lo + (middle(sorted[Math.ceil(rank)]) - lo) * (rank - Math.floor(rank));
}

/**
 * The statistics read from the rollups the log writer keeps (whole hours, whole days) and from the
 * exchanges themselves at the edges of a range: the same figures as the exchanges logged.
 */
describe('AI statistics over rollups', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let acme: ProvisionedClient;
  let managerToken: string;
  let companyId: number;
  let rows: Row[] = [];

  const get = (path: string, token = acme.adminToken, app = t) =>
    app
      .http()
      .get(path)
      .set({ 'X-Client-ID': 'acme', Authorization: `Bearer ${token}` })
      .expect(200);
  /** Through the log writer the queue worker uses, in acme's production schema. */
  const write = (exchanges: Exchange[]) =>
    runAsTenant(
      { client: { identifier: 'acme', id: null, isMaster: false }, schema: 'public', requestId: 'test' },
      () => t.app.get<ExchangeStore>(EXCHANGE_STORE).write(exchanges),
    );
  const exchange = (i: number): Exchange => ({
    id: randomUUID(),
    occurredAt: new Date(FIRST + i * SPACING_S * 1000).toISOString(),
    userId: null,
    username: `user${i % 5}`,
    companyId: i % 4 === 0 ? null : companyId,
    provider: ['OPENAI', 'ANTHROPIC', 'GEMINI'][i % 3],
    model: ['m-small', 'm-large'][i % 2],
    inputTokens: 10 + (i % 17),
    outputTokens: 3 + (i % 11),
    totalTokens: 13 + (i % 17) + (i % 11),
    estimatedCost: ((i * 7919) % 1000) / 1e6 + 0.00000123,
    // Apart by more than a latency bucket, so a p95 read from the buckets moves with every exchange.
    latencyMs: i % 97 === 0 ? 0 : Math.floor(5 * 1.021 ** ((i * 7) % 600)),
    conversationId: `c${i % 9}`,
    metadata: null,
    success: i % 13 !== 0,
  });

  const within = (from: string, to: string, list = rows) =>
    list.filter((r) => r.occurred_at >= new Date(from) && r.occurred_at < new Date(to));
  const countTokens = (list: Row[], key: string) => {
    const out: Record<string, { count: number; totalTokens: number }> = {};
    for (const r of list) {
      const e = (out[r[key]] ??= { count: 0, totalTokens: 0 });
      e.count++;
      e.totalTokens += r.total_tokens;
    }
    return out;
  };
  const sumCost = (list: Row[]) => list.reduce((a, r) => a + r.cost, 0);

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { SMTP_URL: sink.url, AI_LOGGING_ENABLED: 'true' } });
    acme = await provisionClient(t, sink, 'acme');
    const companies = await get('/api/admin/companies');
    companyId = companies.body.data[0].id;
    const password = 'User-password-1';
    await createUser(t, acme.adminToken, { email: 'manager@acme.test', password, role: 'MANAGER' }, 'acme');
    managerToken = (await loginFull(t, 'manager@acme.test', password, 'acme')).body.jwt;

    // In batches, so later batches add to rollup rows the earlier ones made.
    const all = Array.from({ length: EXCHANGES }, (_, i) => exchange(i));
    for (let i = 0; i < all.length; i += 50) await write(all.slice(i, i + 50));
    // A write repeated after a failure: the first batch again, with one new exchange.
    await write([...all.slice(0, 50), exchange(EXCHANGES)]);
    rows = await exchangeRows(t, 'acme');
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  it('an exchange written twice is stored and counted once', async () => {
    expect(rows).toHaveLength(EXCHANGES + 1);
    const res = await get('/api/ai/stats?startTime=2025-03-10T08:00:00Z&endTime=2025-03-10T08:14:00Z');
    const first = within('2025-03-10T08:00:00Z', '2025-03-10T08:14:00Z');
    expect(first.length).toBeGreaterThan(1);
    expect(res.body.data.statsByProvider).toEqual(countTokens(first, 'provider'));
    const whole = await get('/api/ai/stats?startTime=2025-03-01T00:00:00Z&endTime=2025-04-01T00:00:00Z');
    expect(whole.body.data.statsByModel).toEqual(countTokens(rows, 'model'));
  });

  it.each([
    ['mid-hour to mid-hour', '2025-03-10T08:30:00Z', '2025-03-10T12:20:00Z'],
    ['inside one hour', '2025-03-10T10:10:00Z', '2025-03-10T10:40:00Z'],
    ['across days, mid-hour', '2025-03-10T09:31:17Z', '2025-03-12T03:07:00Z'],
    ['on whole hours', '2025-03-10T09:00:00Z', '2025-03-11T15:00:00Z'],
  ])('stats %s: counts, tokens, average and p95 latency exactly as logged', async (_, from, to) => {
    const res = await get(`/api/ai/stats?startTime=${from}&endTime=${to}`);
    const list = within(from, to);
    expect(list.length).toBeGreaterThan(5);
    expect(res.body.data.statsByProvider).toEqual(countTokens(list, 'provider'));
    expect(res.body.data.statsByModel).toEqual(countTokens(list, 'model'));
    for (const model of ['m-small', 'm-large']) {
      const latencies = list.filter((r) => r.model === model).map((r) => r.latency_ms as number);
      const { avgMs, p95Ms } = res.body.data.latencyByModel[model];
      expect(avgMs).toBeCloseTo(latencies.reduce((a, b) => a + b, 0) / latencies.length, 9);
      expect(p95Ms).toBeCloseTo(percentileCont(latencies, 0.95), 9);
    }
  });

  it("a manager's statistics hold only their company's exchanges (none of those without a company)", async () => {
    const from = '2025-03-10T08:30:00Z';
    const to = '2025-03-11T12:20:00Z';
    const res = await get(`/api/ai/stats?startTime=${from}&endTime=${to}`, managerToken);
    const theirs = within(from, to).filter((r) => r.company_id === companyId);
    expect(res.body.data.statsByProvider).toEqual(countTokens(theirs, 'provider'));
    const costs = await get(
      `/api/ai/stats/costs?startTime=${from}&endTime=${to}&windowSize=1d`,
      managerToken,
    );
    expect(
      costs.body.data.costOverTime.reduce((a: number, c: { cost: number }) => a + c.cost, 0),
    ).toBeCloseTo(sumCost(theirs), 10);
  });

  it.each(['1h', '2h', '1d', '15m', '90m'])(
    'costs over %s windows, by provider and by user, from mid-hour to mid-hour',
    async (windowSize) => {
      const from = '2025-03-10T08:30:00Z';
      const to = '2025-03-11T21:50:00Z';
      const res = await get(
        `/api/ai/stats/costs?startTime=${from}&endTime=${to}&windowSize=${windowSize}&userLimit=3`,
      );
      const list = within(from, to);
      const minutes = Number(windowSize.slice(0, -1)) * { m: 1, h: 60, d: 1440 }[windowSize.slice(-1) as 'm'];
      const width = minutes * 60000;
      const windows = new Map<string, Row[]>();
      for (const r of list) {
        const start = ORIGIN + Math.floor((r.occurred_at.getTime() - ORIGIN) / width) * width;
        const time = new Date(start).toISOString();
        windows.set(time, [...(windows.get(time) ?? []), r]);
      }
      const expected = [...windows.entries()].sort(([a], [b]) => a.localeCompare(b));
      expect(res.body.data.costOverTime.map((c: { time: string }) => c.time)).toEqual(
        expected.map(([time]) => time),
      );
      res.body.data.costOverTime.forEach((c: { cost: number }, i: number) =>
        expect(c.cost).toBeCloseTo(sumCost(expected[i][1]), 12),
      );
      for (const provider of ['OPENAI', 'ANTHROPIC', 'GEMINI']) {
        expect(res.body.data.costByProvider[provider]).toBeCloseTo(
          sumCost(list.filter((r) => r.provider === provider)),
          12,
        );
      }
      const users = [...new Set(list.map((r) => r.username as string))]
        .map((username) => ({ username, cost: sumCost(list.filter((r) => r.username === username)) }))
        .sort((a, b) => b.cost - a.cost)
        .slice(0, 3);
      expect(res.body.data.costByUser.map((u: { username: string }) => u.username)).toEqual(
        users.map((u) => u.username),
      );
      res.body.data.costByUser.forEach((u: { cost: number }, i: number) =>
        expect(u.cost).toBeCloseTo(users[i].cost, 12),
      );
    },
  );

  it('above AI_STATS_EXACT_PERCENTILE_LIMIT, p95 comes from the latency histogram, within 1 % of exact', async () => {
    const replica = await bootApp({
      masterDatabase: t.masterDatabase,
      env: { ...t.env, AI_STATS_EXACT_PERCENTILE_LIMIT: '10' },
    });
    const pg = new Client({ connectionString: databaseUrl(`${t.masterDatabase}_acme`) });
    await pg.connect();
    try {
      const ranges = [
        ['2025-03-10T09:31:17Z', '2025-03-12T03:07:00Z'],
        ['2025-03-10T00:00:00Z', '2025-03-13T00:00:00Z'],
        ['2025-03-10T10:10:00Z', '2025-03-10T13:40:00Z'],
      ];
      let differs = false;
      for (const [from, to] of ranges) {
        const approx = await get(`/api/ai/stats?startTime=${from}&endTime=${to}`, acme.adminToken, replica);
        const exact = await get(`/api/ai/stats?startTime=${from}&endTime=${to}`);
        expect(approx.body.data.statsByModel).toEqual(exact.body.data.statsByModel);
        const { rows: sql } = await pg.query(
          `SELECT model, percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95
             FROM ai_exchanges WHERE occurred_at >= $1 AND occurred_at < $2 GROUP BY model`,
          [from, to],
        );
        expect(sql).toHaveLength(2);
        for (const { model, p95 } of sql) {
          const { p95Ms, avgMs } = approx.body.data.latencyByModel[model];
          expect(Math.abs(p95Ms - p95) / p95).toBeLessThanOrEqual(0.01);
          expect(exact.body.data.latencyByModel[model].p95Ms).toBeCloseTo(p95, 9);
          expect(avgMs).toBe(exact.body.data.latencyByModel[model].avgMs);
          if (Math.abs(p95Ms - p95) > 1e-9) differs = true;
          // And exactly what buckets of 2 % give when every exchange in range is counted once.
          const latencies = within(from, to)
            .filter((r) => r.model === model)
            .map((r) => r.latency_ms as number);
          expect(p95Ms).toBeCloseTo(bucketedP95(latencies), 9);
        }
      }
      // The replica really read the histogram: its buckets' middle values are never the exact ones.
      expect(differs).toBe(true);
    } finally {
      await pg.end();
      await replica.close();
    }
  });

  it('the migration fills the rollups from the exchanges already logged, to the same figures', async () => {
    const from = '2025-03-10T08:30:00Z';
    const to = '2025-03-12T03:07:00Z';
    const before = await get(`/api/ai/stats/costs?startTime=${from}&endTime=${to}&windowSize=1h`);
    const pg = new Client({ connectionString: databaseUrl(`${t.masterDatabase}_acme`) });
    await pg.connect();
    try {
      const migration = new AiExchangeRollups1734400000000();
      const runner = { query: (sql: string) => pg.query(sql) } as never;
      await pg.query('BEGIN');
      await migration.down(runner);
      await migration.up(runner);
      // As the platform does after migrating: the client's own role gets the new tables too.
      const { rows: roles } = await pg.query(
        `SELECT DISTINCT grantee FROM information_schema.role_table_grants
          WHERE table_name = 'ai_exchanges' AND privilege_type = 'INSERT' AND grantee <> current_user`,
      );
      for (const { grantee } of roles) {
        await pg.query(
          `GRANT SELECT, INSERT, UPDATE ON ai_exchange_hours, ai_exchange_days, ai_exchange_user_hours, ai_exchange_latency_days, ai_exchange_latency_hours
             TO "${grantee}"`,
        );
      }
      await pg.query('COMMIT');
      const { rows: hours } = await pg.query('SELECT sum(exchanges)::int AS n FROM ai_exchange_hours');
      expect(hours[0].n).toBe(rows.length);
      const { rows: days } = await pg.query('SELECT sum(exchanges)::int AS n FROM ai_exchange_days');
      expect(days[0].n).toBe(rows.length);
    } finally {
      await pg.end();
    }
    const after = await get(`/api/ai/stats/costs?startTime=${from}&endTime=${to}&windowSize=1h`);
    expect(after.body.data).toEqual(before.body.data);
    const stats = await get(`/api/ai/stats?startTime=${from}&endTime=${to}`);
    expect(stats.body.data.statsByModel).toEqual(countTokens(within(from, to), 'model'));
  });
});
