import { SmtpSink } from '../test/support/smtp-sink';
import { bootApp, provisionClient } from '../test/support/test-app';
import { BENCH_SECRETS, fmt, withBenchRun } from './bench-env';
import { startChild } from './child';

/**
 * A normal login while the public identity endpoints are flooded. Each round fires BURST concurrent
 * requests and, while they are in flight, one login with a correct password; the login's time is
 * the sample. Three servers: the shipped settings (the flood comes from one address, so the
 * per-address limit answers most of it), the per-address limit lifted (a flood from many addresses:
 * every request reaches its handler), and that with the hash queue opened wide (what an unbounded
 * queue of bcrypt work does to a login). Answers with status 0 are requests that failed.
 */
const ROUNDS = Number(process.env.BENCH_FLOOD_ROUNDS ?? 8);
const BURST = Number(process.env.BENCH_FLOOD_BURST ?? 200);
const TARGET_P95_MS = 200;

interface Timing {
  p50: number;
  p95: number;
  max: number;
  statuses: Record<number, number>;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Target {
  base: string;
  client: string;
  identifier: string;
  password: string;
}

function post(target: Target, path: string, body: unknown) {
  return fetch(`${target.base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Client-ID': target.client },
    body: JSON.stringify(body),
  });
}

async function timedLogin(target: Target): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await post(target, '/auth/local', {
    identifier: target.identifier,
    password: target.password,
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

let registrations = 0;

const floods = {
  none: () => [] as Promise<Response>[],
  resets: (target: Target) =>
    Array.from({ length: BURST }, () =>
      post(target, '/auth/reset-password', {
        code: crypto.randomUUID(),
        password: 'Flood-password-1',
        passwordConfirmation: 'Flood-password-1',
      }),
    ),
  registrations: (target: Target) =>
    Array.from({ length: BURST }, () =>
      post(target, '/auth/local/register', {
        email: `flood${++registrations}@flood.test`,
        password: 'Flood-password-1',
        firstName: 'Flood',
        lastName: 'Flood',
      }),
    ),
};

async function measure(target: Target, flood: (t: Target) => Promise<Response>[]): Promise<Timing> {
  const samples: number[] = [];
  const statuses: Record<number, number> = {};
  for (let round = 0; round < ROUNDS + 2; round++) {
    const burst = flood(target);
    await sleep(20);
    const ms = await timedLogin(target);
    for (const settled of await Promise.allSettled(burst)) {
      const status = settled.status === 'fulfilled' ? settled.value.status : 0;
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (settled.status === 'fulfilled') await settled.value.arrayBuffer();
    }
    if (round >= 2) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  return {
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    max: samples[samples.length - 1],
    statuses,
  };
}

/**
 * `node dist-bench/bench/public-flood.js`: the real app in a child process with BCRYPT_ROUNDS=10
 * (the production default).
 */
export async function main(): Promise<void> {
  await withBenchRun(async () => {
    const sink = await new SmtpSink().start();
    const setup = await bootApp({ env: { SMTP_URL: sink.url, BCRYPT_ROUNDS: '10', ...BENCH_SECRETS } });
    const client = await provisionClient(setup, sink, 'flood');
    const appEnv = {
      ...setup.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      AUTH_LOGIN_LIMIT_PER_IDENTIFIER: '100000000',
      AUTH_LOGIN_LIMIT_PER_ADDRESS: '100000000',
      SMTP_URL: '',
    };
    await setup.close();
    await sink.stop();
    const line = (name: string, r: Timing) =>
      `  ${name.padEnd(52)} p50 ${fmt(r.p50).padStart(7)} ms  p95 ${fmt(r.p95).padStart(7)} ms  max ${fmt(r.max).padStart(7)} ms  ${r.p95 < TARGET_P95_MS ? 'ok' : 'OVER'}  answers ${JSON.stringify(r.statuses)}`;
    console.log(
      `\nLogin under a flood of the public endpoints (${BURST} concurrent requests per round, ${ROUNDS} rounds, bcrypt cost 10, target p95 < ${TARGET_P95_MS} ms)`,
    );
    const lifted = { AUTH_PUBLIC_LIMIT_PER_ADDRESS: '100000000' };
    const wide = { ...lifted, PASSWORD_HASH_CONCURRENCY: '16', PASSWORD_HASH_QUEUE_LIMIT: '10000' };
    // The shipped settings run last: an address blocked by the limit stays blocked in Redis for the
    // window, whatever the next server's settings.
    const servers: [string, Record<string, string>, (keyof typeof floods)[]][] = [
      ['per-address limit lifted (a flood from many addresses)', lifted, ['none', 'resets', 'registrations']],
      ['limit lifted and hash queue opened wide (16 / 10000)', wide, ['none', 'registrations']],
      [
        'shipped settings (30 a minute per address, hash queue 2 / 50)',
        { AUTH_PUBLIC_LIMIT_PER_ADDRESS: '30' }, // the test harness's env lifts it
        ['none', 'resets'],
      ],
    ];
    const names = {
      none: 'no flood (baseline)',
      resets: `${BURST} bogus POST /auth/reset-password`,
      registrations: `${BURST} POST /auth/local/register (new addresses)`,
    };
    for (const [label, settings, lines] of servers) {
      const app = await startChild('nest-server', {
        BENCH_APP_ENV: JSON.stringify({ ...appEnv, ...settings }),
      });
      try {
        const target: Target = {
          base: `http://127.0.0.1:${app.port}`,
          client: 'flood',
          identifier: client.adminEmail,
          password: client.adminPassword,
        };
        console.log(` ${label}`);
        for (const name of lines) console.log(line(names[name], await measure(target, floods[name])));
      } finally {
        await app.stop();
      }
    }
  });
}

if (require.main === module) {
  void main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
