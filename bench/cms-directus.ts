import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { clientDatabase, sql } from '../test/support/pg';
import { SmtpSink } from '../test/support/smtp-sink';
import { bootApp, provisionClient } from '../test/support/test-app';
import { databaseUrl } from '../test/support/test-env';
import { BENCH_SECRETS, fmt, runAlone } from './bench-env';
import { Child, startChild } from './child';
import { ASSETS, percentile, SAMPLES, timed } from './cms-scenario';

/**
 * Custom tables beside Directus 11: the scenario of bench/cms.ts (a 10-field type, ROWS rows filled
 * by SQL) built in both systems, and every figure measured with the same client code in the same
 * run, alternating between the two, each beside the bare SQL of the same query on its own table.
 * Directus runs outside this repository (docs/benchmarks.md, "Custom tables beside Directus");
 * without its URL, credentials and database the bench says so and measures nothing.
 */
const ROWS = Number(process.env.BENCH_CMS_ROWS ?? 100_000);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Math.max(1, Number(process.env.BENCH_DIRECTUS_ROUNDS ?? 2));
/**
 * After the fill, both tables are vacuumed as autovacuum would leave a table filled once and then
 * read (its visibility map current, so counts and id walks read indexes alone); `BENCH_CMS_VACUUM=0`
 * only analyses them (a table autovacuum has not visited yet).
 */
const VACUUM = process.env.BENCH_CMS_VACUUM !== '0';
const SETTLE = VACUUM ? 'VACUUM (ANALYZE)' : 'ANALYZE';
const COLLECTION = ASSETS.collectionName;

/** The same collection in Directus: its usual id and the four audit fields, then the same ten. */
const DIRECTUS_FIELDS = [
  {
    field: 'id',
    type: 'integer',
    meta: { hidden: true },
    schema: { is_primary_key: true, has_auto_increment: true },
  },
  { field: 'date_created', type: 'timestamp', meta: { special: ['date-created'] }, schema: {} },
  { field: 'date_updated', type: 'timestamp', meta: { special: ['date-updated'] }, schema: {} },
  { field: 'user_created', type: 'uuid', meta: { special: ['user-created'] }, schema: {} },
  { field: 'user_updated', type: 'uuid', meta: { special: ['user-updated'] }, schema: {} },
  { field: 'code', type: 'string', meta: {}, schema: { is_unique: true } },
  { field: 'name', type: 'string', meta: {}, schema: { max_length: 120 } },
  { field: 'description', type: 'text', meta: {}, schema: {} },
  { field: 'capacity', type: 'integer', meta: {}, schema: {} },
  { field: 'weight', type: 'float', meta: {}, schema: {} },
  { field: 'price', type: 'decimal', meta: {}, schema: { numeric_precision: 10, numeric_scale: 2 } },
  { field: 'active', type: 'boolean', meta: {}, schema: {} },
  { field: 'installed_on', type: 'date', meta: {}, schema: {} },
  {
    field: 'level',
    type: 'string',
    meta: {
      interface: 'select-dropdown',
      options: { choices: ['LOW', 'MEDIUM', 'HIGH'].map((v) => ({ text: v, value: v })) },
      validation: { level: { _in: ['LOW', 'MEDIUM', 'HIGH'] } },
    },
    schema: {},
  },
  { field: 'extra', type: 'json', meta: {}, schema: {} },
];

/** The fill of bench/cms.ts, the same rows in both tables (ours in the admin's company, `$2`). */
const FILL = (table: string, company: boolean) =>
  `INSERT INTO ${table} (${company ? 'company_id, ' : ''}code, name, description, capacity, weight, price, active, installed_on, level, extra)
   SELECT ${company ? '$2::bigint, ' : ''}'A-' || g, 'Asset ' || g, 'Bench asset number ' || g, g % 1000, g * 0.5, (g % 10000) / 100.0, g % 2 = 0,
          DATE '2020-01-01' + (g % 2000), (ARRAY['LOW','MEDIUM','HIGH'])[1 + g % 3], jsonb_build_object('n', g)
     FROM generate_series(1, $1::int) g`;

interface DirectusTarget {
  url: string;
  email: string;
  password: string;
  databaseUrl: string;
}

/** Directus to measure against, from the environment; null (with what is missing) when not given. */
function directusTarget(): DirectusTarget | string {
  const env = {
    url: process.env.BENCH_DIRECTUS_URL,
    email: process.env.BENCH_DIRECTUS_EMAIL,
    password: process.env.BENCH_DIRECTUS_PASSWORD,
    databaseUrl: process.env.BENCH_DIRECTUS_DB_URL,
  };
  const missing = Object.entries({
    BENCH_DIRECTUS_URL: env.url,
    BENCH_DIRECTUS_EMAIL: env.email,
    BENCH_DIRECTUS_PASSWORD: env.password,
    BENCH_DIRECTUS_DB_URL: env.databaseUrl,
  })
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length) return missing.join(', ');
  return { ...env, url: env.url!.replace(/\/$/, '') } as DirectusTarget;
}

/** A request whose answer must be 200 (its body read, as a client would). */
async function ok(res: Promise<Response>): Promise<void> {
  const answer = await res;
  const body = await answer.text();
  if (answer.status !== 200)
    throw new Error(`bench request answered ${answer.status}: ${body.slice(0, 300)}`);
}

async function throughput(url: string, headers: Record<string, string>, body: unknown) {
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { rps: result.requests.average, non2xx: result.non2xx };
}

/** Inserts per second of a bare INSERT from CONNECTIONS clients for DURATION_S. */
async function bareInserts(pool: Pool, text: string, values: unknown[]): Promise<number> {
  const end = Date.now() + DURATION_S * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        await pool.query(text, values);
        done++;
      }
    }),
  );
  return done / DURATION_S;
}

/** One system under test: how to send each request of the scenario, and its own bare SQL. */
interface System {
  name: string;
  base: string;
  headers: Record<string, string>;
  bare: Pool;
  listPage(page: number): Promise<void>;
  searchCode(code: string): Promise<void>;
  nested(i: number): Promise<void>;
  aggregate(): Promise<void>;
  createUrl: string;
  bareInsert: [string, unknown[]];
  addField(name: string, type: 'string' | 'integer'): Promise<void>;
  table: string;
}

const record = { name: 'Created', capacity: 5, weight: 1.5, price: 9.99, active: true, level: 'LOW' };

/** The same request set for each system, both of them bare (same text, own table). */
function bareQueries(s: System) {
  const q = (text: string, values: unknown[] = []) => s.bare.query(text, values);
  const t = s.table;
  const columns = `*, price::float8 AS price_f, installed_on::text AS installed_text`;
  const page = (n: number) =>
    Promise.all([
      q(`SELECT ${columns} FROM ${t} ORDER BY code LIMIT 25 OFFSET $1`, [(n - 1) * 25]),
      q(`SELECT count(*) FROM ${t}`),
    ]);
  const search = (code: string) =>
    Promise.all([
      q(`SELECT ${columns} FROM ${t} WHERE code = $1 ORDER BY id DESC LIMIT 25`, [code]),
      q(`SELECT count(*) FROM ${t} WHERE code = $1`, [code]),
    ]);
  const nested = (i: number) => {
    const where = `((level = $1 AND capacity > $2) OR (active = $3 AND name LIKE $4 AND (price < $5) IS NOT TRUE))`;
    const values = ['HIGH', 990 - (i % 10), true, `Asset 9${i % 10}%`, 50];
    return Promise.all([
      q(`SELECT ${columns} FROM ${t} WHERE ${where} ORDER BY code LIMIT 25`, values),
      q(`SELECT count(*) FROM ${t} WHERE ${where}`, values),
    ]);
  };
  const aggregate = () =>
    q(
      `SELECT level, date_trunc('year', installed_on)::date::text AS y, count(*), avg(price)::float8, max(capacity)::float8
         FROM ${t} WHERE active = $1 GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 1001`,
      [true],
    );
  return { page, search, nested, aggregate };
}

/** Our API in a child process (production mode, as deployed), on a filled copy of the scenario. */
async function startOurs(): Promise<{ system: System; child: Child }> {
  const sink = await new SmtpSink().start();
  const setup = await bootApp({ env: { SMTP_URL: sink.url, LOG_LEVEL: 'error', ...BENCH_SECRETS } });
  let appEnv: NodeJS.ProcessEnv;
  let token: string;
  let db: string;
  let companyId: number;
  try {
    const client = await provisionClient(setup, sink, 'benchcmsd');
    token = client.adminToken;
    const created = await setup
      .http()
      .post('/api/cms/content-types')
      .set({ 'X-Client-ID': 'benchcmsd', Authorization: `Bearer ${token}` })
      .send(ASSETS);
    if (created.status !== 201)
      throw new Error(`content type: ${created.status} ${JSON.stringify(created.body)}`);
    db = clientDatabase(setup.masterDatabase, 'benchcmsd');
    // A new type is company-scoped: the rows go to the admin's company, as the API's records do.
    const [{ company }] = await sql<{ company: number }>(
      db,
      'SELECT company_id AS company FROM users WHERE email = $1',
      [client.adminEmail],
    );
    companyId = company;
    await sql(db, FILL('cms_bench_assets', true), [ROWS, company]);
    await sql(db, `${SETTLE} cms_bench_assets`);
    appEnv = {
      ...setup.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      MULTITENANCY_DATABASE_AUTO_MIGRATE: 'false',
    };
  } finally {
    await setup.close();
    await sink.stop();
  }
  const child = await startChild('nest-server', { BENCH_APP_ENV: JSON.stringify(appEnv) });
  const base = `http://127.0.0.1:${child.port}`;
  const headers = { 'X-Client-ID': 'benchcmsd', Authorization: `Bearer ${token}` };
  const post = (path: string, body: unknown) =>
    ok(
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  const attributes: Record<string, unknown> = { ...ASSETS.attributes };
  const system: System = {
    name: 'ours',
    base,
    headers,
    bare: new Pool({ connectionString: databaseUrl(db), max: CONNECTIONS }),
    table: 'cms_bench_assets',
    listPage: (page) =>
      ok(fetch(`${base}/api/cms/${COLLECTION}?sort=code&order=ASC&pageSize=25&page=${page}`, { headers })),
    searchCode: (code) => post(`/api/cms/${COLLECTION}/search`, { code }),
    nested: (i) =>
      post(`/api/cms/${COLLECTION}/search?sort=code&order=ASC`, {
        $or: [
          { level: 'HIGH', capacity: { $gt: 990 - (i % 10) } },
          {
            $and: [
              { active: true },
              { name: { $startsWith: `Asset 9${i % 10}` } },
              { $not: { price: { $lt: 50 } } },
            ],
          },
        ],
      }),
    aggregate: () =>
      post(`/api/cms/${COLLECTION}/aggregate`, {
        aggregate: { count: ['*'], avg: ['price'], max: ['capacity'] },
        groupBy: ['level', { field: 'installedOn', interval: 'year' }],
        filter: { active: true },
      }),
    createUrl: `${base}/api/cms/${COLLECTION}`,
    bareInsert: [
      `INSERT INTO cms_bench_assets (company_id, created_by_id, updated_by_id, name, capacity, weight, price, active, level)
       VALUES ($8, $1, $1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [1, 'Created', 5, 1.5, '9.99', true, 'LOW', companyId],
    ],
    addField: async (name, type) => {
      attributes[name] = { type };
      const res = await fetch(`${base}/api/cms/content-types/${COLLECTION}`, {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ attributes }),
      });
      if (res.status !== 200) throw new Error(`add field: ${res.status} ${await res.text()}`);
    },
  };
  return { system, child };
}

/** Directus: a static token for its admin, the collection made through its API, filled by SQL. */
async function startDirectus(target: DirectusTarget): Promise<System & { cleanUp(): Promise<void> }> {
  const base = target.url;
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: target.email, password: target.password }),
  });
  if (login.status !== 200) throw new Error(`Directus login: ${login.status} ${await login.text()}`);
  const access = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  const staticToken = randomBytes(24).toString('hex');
  const call = async (method: string, path: string, body: unknown, token: string, allowed = [200, 204]) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!allowed.includes(res.status))
      throw new Error(`Directus ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return res.status;
  };
  // A static token, as an integration would use (the login's access token expires in minutes).
  await call('PATCH', '/users/me', { token: staticToken }, access);
  const headers = { Authorization: `Bearer ${staticToken}` };
  await call('DELETE', `/collections/${COLLECTION}`, undefined, staticToken, [200, 204, 403, 404]);
  await call(
    'POST',
    '/collections',
    { collection: COLLECTION, meta: { icon: 'inventory' }, schema: {}, fields: DIRECTUS_FIELDS },
    staticToken,
  );
  const bare = new Pool({ connectionString: target.databaseUrl, max: CONNECTIONS });
  const cleanUp = async () => {
    await bare.end();
    await call('DELETE', `/collections/${COLLECTION}`, undefined, staticToken, [200, 204]);
    await call('PATCH', '/users/me', { token: null }, staticToken);
  };
  try {
    await bare.query(FILL(COLLECTION, false), [ROWS]);
    await bare.query(`${SETTLE} ${COLLECTION}`);
  } catch (err) {
    await cleanUp();
    throw err;
  }
  const items = `${base}/items/${COLLECTION}`;
  const get = (query: string) => ok(fetch(`${items}?${query}`, { headers }));
  const filter = (f: unknown) => `filter=${encodeURIComponent(JSON.stringify(f))}`;
  return {
    name: 'Directus',
    base,
    headers,
    bare,
    table: COLLECTION,
    listPage: (page) => get(`sort=code&limit=25&page=${page}&meta=filter_count`),
    searchCode: (code) => get(`${filter({ code: { _eq: code } })}&sort=-id&limit=25&meta=filter_count`),
    // Directus has no _not: NOT (price < 50), null included, is spelt as its two cases.
    nested: (i) =>
      get(
        `${filter({
          _or: [
            { _and: [{ level: { _eq: 'HIGH' } }, { capacity: { _gt: 990 - (i % 10) } }] },
            {
              _and: [
                { active: { _eq: true } },
                { name: { _starts_with: `Asset 9${i % 10}` } },
                { _or: [{ price: { _gte: 50 } }, { price: { _null: true } }] },
              ],
            },
          ],
        })}&sort=code&limit=25&meta=filter_count`,
      ),
    aggregate: () =>
      get(
        'aggregate[count]=*&aggregate[avg]=price&aggregate[max]=capacity&groupBy[]=level&groupBy[]=year(installed_on)' +
          '&filter[active][_eq]=true&sort=level&limit=1001',
      ),
    createUrl: items,
    bareInsert: [
      `INSERT INTO ${COLLECTION} (date_created, name, capacity, weight, price, active, level)
       VALUES (now(), $1, $2, $3, $4, $5, $6) RETURNING id`,
      ['Created', 5, 1.5, '9.99', true, 'LOW'],
    ],
    addField: async (name, type) => {
      await call('POST', `/fields/${COLLECTION}`, { field: name, type, meta: {}, schema: {} }, staticToken);
    },
    cleanUp,
  };
}

interface Figure {
  name: string;
  api: number[];
  bare: number[];
}

/** Each latency figure for one system, then the other, then the bare SQL of each: one round. */
async function latencyRound(order: System[]): Promise<Map<string, Figure[]>> {
  const pages = Math.max(1, Math.floor(ROWS / 25));
  const firstPage = (i: number) => 1 + (i % Math.min(40, pages));
  const anyPage = (i: number) => 1 + ((i * 7919) % pages);
  // The last quarter of the pages: an OFFSET of 75-100 % of the rows.
  const deepPage = (i: number) => pages - ((i * 7919) % Math.max(1, Math.floor(pages / 4)));
  const code = (i: number) => `A-${1 + ((i * 7919) % ROWS)}`;
  const scenario: [
    string,
    (s: System, i: number) => Promise<unknown>,
    (s: System, i: number) => Promise<unknown>,
  ][] = [
    [
      'list page 1-40 sorted by code',
      (s, i) => s.listPage(firstPage(i)),
      (s, i) => bareQueries(s).page(firstPage(i)),
    ],
    [
      'list, any page (deep OFFSET)',
      (s, i) => s.listPage(anyPage(i)),
      (s, i) => bareQueries(s).page(anyPage(i)),
    ],
    [
      'list, last quarter of the pages',
      (s, i) => s.listPage(deepPage(i)),
      (s, i) => bareQueries(s).page(deepPage(i)),
    ],
    ['search by code', (s, i) => s.searchCode(code(i)), (s, i) => bareQueries(s).search(code(i))],
    ['nested or filter', (s, i) => s.nested(i), (s, i) => bareQueries(s).nested(i)],
    ['aggregate, groupBy level and year', (s) => s.aggregate(), (s) => bareQueries(s).aggregate()],
  ];
  const figures = new Map<string, Figure[]>(order.map((s) => [s.name, []]));
  for (const [name, api, bare] of scenario) {
    const apiTimes = new Map<string, number[]>();
    for (const s of order) apiTimes.set(s.name, await timed((i) => api(s, i)));
    for (const s of order)
      figures.get(s.name)!.push({ name, api: apiTimes.get(s.name)!, bare: await timed((i) => bare(s, i)) });
  }
  return figures;
}

function printRound(round: number, figures: Map<string, Figure[]>, ours: string, theirs: string) {
  console.log(
    `\n  round ${round}: p95 in ms, each system beside the bare SQL of the same query on its own table`,
  );
  const a = figures.get(ours)!;
  const b = figures.get(theirs)!;
  for (let k = 0; k < a.length; k++) {
    const [oa, ob] = [percentile(a[k].api, 95), percentile(a[k].bare, 95)];
    const [da, db] = [percentile(b[k].api, 95), percentile(b[k].bare, 95)];
    console.log(
      `  ${a[k].name.padEnd(34)}: ours ${fmt(oa)} (bare ${fmt(ob)}, ratio ${fmt(oa / ob, 2)}); Directus ${fmt(da)} (bare ${fmt(db)}, ratio ${fmt(da / db, 2)}); ours ÷ Directus ${fmt(oa / da, 2)}, of the ratios ${fmt(oa / ob / (da / db), 2)}`,
    );
  }
}

export async function main(): Promise<void> {
  const target = directusTarget();
  if (typeof target === 'string') {
    console.log(
      `\nCustom tables beside Directus: skipped (no Directus given: set ${target}; docs/benchmarks.md, "Custom tables beside Directus")`,
    );
    return;
  }
  const directus = await startDirectus(target);
  let ours: { system: System; child: Child } | undefined;
  try {
    ours = await startOurs();
    const systems = [ours.system, directus];
    console.log(
      `\nCustom tables beside Directus (${target.url}): a 10-field type with ${ROWS} rows (${VACUUM ? 'vacuumed' : 'analysed only'}), ${SAMPLES} sequential samples per latency, ${ROUNDS} rounds alternating which system goes first`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? systems : [...systems].reverse();
      printRound(round, await latencyRound(order), ours.system.name, directus.name);
    }

    const created = new Map<string, { rps: number; non2xx: number; bare: number }>();
    for (const s of systems) {
      const api = await throughput(s.createUrl, s.headers, record);
      created.set(s.name, { ...api, bare: 0 });
    }
    for (const s of systems) created.get(s.name)!.bare = await bareInserts(s.bare, ...s.bareInsert);
    const [oc, dc] = [created.get('ours')!, created.get('Directus')!];
    console.log(
      `  record creation, ${CONNECTIONS} connections, ${DURATION_S} s: ours ${fmt(oc.rps, 1)} req/s (non-2xx ${oc.non2xx}, bare INSERT ${fmt(oc.bare, 0)}/s, ratio ${fmt(oc.rps / oc.bare, 2)}); Directus ${fmt(dc.rps, 1)} req/s (non-2xx ${dc.non2xx}, bare INSERT ${fmt(dc.bare, 0)}/s, ratio ${fmt(dc.rps / dc.bare, 2)}); ours ÷ Directus ${fmt(oc.rps / dc.rps, 2)}, of the ratios ${fmt(oc.rps / oc.bare / (dc.rps / dc.bare), 2)}`,
    );

    const added = new Map<string, number[]>();
    for (const s of systems) {
      const times: number[] = [];
      for (const [name, type] of [
        ['added', 'string'],
        ['added_too', 'integer'],
      ] as const) {
        const start = performance.now();
        await s.addField(name, type);
        times.push(performance.now() - start);
      }
      const start = performance.now();
      await s.bare.query(`ALTER TABLE ${s.table} ADD COLUMN bare_added varchar(255)`);
      times.push(performance.now() - start);
      added.set(s.name, times);
    }
    const [oa, da] = [added.get('ours')!, added.get('Directus')!];
    const best = (t: number[]) => Math.min(t[0], t[1]);
    console.log(
      `  adding a field to the filled table: ours ${fmt(oa[0], 0)} then ${fmt(oa[1], 0)} ms (bare ALTER ${fmt(oa[2], 1)} ms); Directus ${fmt(da[0], 0)} then ${fmt(da[1], 0)} ms (bare ALTER ${fmt(da[2], 1)} ms); ours ÷ Directus ${fmt(best(oa) / best(da), 2)} (faster of the two)`,
    );
  } finally {
    if (ours) {
      await ours.system.bare.end();
      await ours.child.stop();
    }
    await directus.cleanUp();
  }
}

if (require.main === module) {
  if (typeof directusTarget() === 'string') void main();
  else runAlone(main);
}
