import autocannon from 'autocannon';

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
 * Correct logins never use up the login rate limit, which counts failures only.
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
  const jwtGuard = await run({
    url: `${base}${GUARDED_PATH}`,
    headers: { ...clientHeader, Authorization: `Bearer ${tokens.jwt}` },
  });
  const apiTokenGuard = await run({
    url: `${base}${GUARDED_PATH}`,
    headers: { ...clientHeader, Authorization: `Bearer ${tokens.apiToken}` },
  });
  return {
    login: { ...login, bcryptRounds: tokens.bcryptRounds ?? null },
    jwtGuard,
    apiTokenGuard,
    apiTokenOverheadP50Ms: apiTokenGuard.p50 - jwtGuard.p50,
  };
}
