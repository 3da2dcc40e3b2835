import autocannon from 'autocannon';
import { SmtpSink } from '../test/support/smtp-sink';
import { bootApp, provisionClient } from '../test/support/test-app';
import { BENCH_SECRETS, withBenchRun } from './bench-env';
import { startChild } from './child';

export interface IdentityBenchTokens {
  /** Access token of a user who may read units. */
  jwt: string;
  /** `svc_...` API token with units:read, of the same client. */
  apiToken: string;
  /** Credentials of a user without two-factor, for the login measurement. */
  identifier: string;
  password: string;
  /** X-Client-ID of the client the tokens belong to; master when absent. */
  client?: string;
  /** BCRYPT_ROUNDS of the server under test, reported beside the login throughput. */
  bcryptRounds?: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

export interface IdentityBenchResult {
  login: LoadResult & { bcryptRounds: number | null };
  jwtGuard: LoadResult;
  apiTokenGuard: LoadResult;
  /** Extra latency of the API-token guard over the JWT guard at p50, in ms. */
  apiTokenOverheadP50Ms: number;
}

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** A cheap authenticated endpoint: the guard dominates its cost. */
const GUARDED_PATH = '/api/units?pageSize=1';

async function run(options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

/**
 * Login throughput (POST /auth/local with a correct password: bcrypt at the stated cost, session
 * issue and audit entry) and the cost of the API-token guard beside the JWT guard on one endpoint.
 */
export async function benchIdentity(
  baseUrl: string,
  tokens: IdentityBenchTokens,
): Promise<IdentityBenchResult> {
  const base = baseUrl.replace(/\/$/, '');
  const clientHeader: Record<string, string> = tokens.client ? { 'X-Client-ID': tokens.client } : {};
  const login = await run({
    url: `${base}/auth/local`,
    method: 'POST',
    headers: { ...clientHeader, 'Content-Type': 'application/json' },
    body: JSON.stringify({ identifier: tokens.identifier, password: tokens.password }),
  });
  // Let the bcrypt work still queued from the login run drain, then warm both paths up.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const guarded = (token: string): autocannon.Options => ({
    url: `${base}${GUARDED_PATH}`,
    headers: { ...clientHeader, Authorization: `Bearer ${token}` },
  });
  await run({ ...guarded(tokens.jwt), duration: 2 });
  await run({ ...guarded(tokens.apiToken), duration: 2 });
  const jwtGuard = await run(guarded(tokens.jwt));
  const apiTokenGuard = await run(guarded(tokens.apiToken));
  return {
    login: { ...login, bcryptRounds: tokens.bcryptRounds ?? null },
    jwtGuard,
    apiTokenGuard,
    apiTokenOverheadP50Ms: apiTokenGuard.p50 - jwtGuard.p50,
  };
}

/**
 * `node dist-bench/bench/identity.js`: the real app in a child process with BCRYPT_ROUNDS=10 (the
 * production default) and the login rate limit lifted so the bench measures the login itself.
 */
export async function main(): Promise<void> {
  await withBenchRun(async () => {
    const sink = await new SmtpSink().start();
    const env = {
      SMTP_URL: sink.url,
      BCRYPT_ROUNDS: '10',
      ...BENCH_SECRETS,
    };
    const setup = await bootApp({ env });
    const client = await provisionClient(setup, sink, 'ident');
    const created = await setup
      .http()
      .post('/api/admin/tokens')
      .set({ 'X-Client-ID': 'ident', Authorization: `Bearer ${client.adminToken}` })
      .send({ name: 'bench', permissions: [{ resourceName: 'units', canRead: true }] });
    if (created.status !== 201) throw new Error(`token: ${created.status} ${JSON.stringify(created.body)}`);
    const appEnv = {
      ...setup.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      AUTH_LOGIN_LIMIT_PER_IDENTIFIER: '100000000',
      AUTH_LOGIN_LIMIT_PER_ADDRESS: '100000000',
    };
    await setup.close();
    await sink.stop();
    const app = await startChild('nest-server', { BENCH_APP_ENV: JSON.stringify(appEnv) });
    try {
      const result = await benchIdentity(`http://127.0.0.1:${app.port}`, {
        jwt: client.adminToken,
        apiToken: created.body.data.token,
        identifier: client.adminEmail,
        password: client.adminPassword,
        client: 'ident',
        bcryptRounds: 10,
      });
      const line = (r: LoadResult) =>
        `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms (non-2xx ${r.non2xx})`;
      console.log(`\nIdentity (${CONNECTIONS} connections, ${DURATION_S} s each)`);
      console.log(`  POST /auth/local, bcrypt cost ${result.login.bcryptRounds} : ${line(result.login)}`);
      console.log(`  GET ${GUARDED_PATH} with a JWT          : ${line(result.jwtGuard)}`);
      console.log(`  same with an svc_ API token             : ${line(result.apiTokenGuard)}`);
      console.log(
        `  API-token guard beside the JWT guard     : ${(result.apiTokenGuard.rps / result.jwtGuard.rps).toFixed(2)} of its throughput, ${result.apiTokenOverheadP50Ms} ms more at p50`,
      );
    } finally {
      await app.stop();
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
