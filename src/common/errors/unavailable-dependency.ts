/** A dependency this process could not reach, so the caller may retry; answered as 503. */
export type UnavailableDependency = 'database' | 'redis';

/** Socket-level failures: the other side is gone or unreachable (pg and ioredis alike). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * PostgreSQL SQLSTATEs of a server going away or not taking connections (class 08 is added below),
 * and of a write to a database made read-only for a moment (a client being moved).
 */
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '25006']);
/** What pg, pg-pool and TypeORM say when a connection is lost, cannot be had, or was never there. */
const PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Cannot use a pool after calling end/,
  /^Client was closed and is not queryable/,
  /^Query read timeout/,
];
/** A transaction whose connection the server ended is released under the queries still queued on it. */
const TYPEORM_NAMES = new Set([
  'ConnectionIsNotSetError',
  'CannotExecuteNotConnectedError',
  'QueryRunnerAlreadyReleasedError',
]);
/** ioredis: commands failed while disconnected, or a connection closed under them. */
const REDIS_NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError']);
const REDIS_MESSAGES = [/^Connection is closed/, /^Stream isn't writeable/, /enableOfflineQueue/];

interface ErrorLike {
  name?: string;
  message?: string;
  code?: unknown;
  errno?: unknown;
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/**
 * Which dependency `err` says is unavailable, or null for any other error. Looks through the forms
 * they arrive in: TypeORM's QueryFailedError (`driverError`), `cause` chains and AggregateError (a
 * refused connection to every address of a host).
 */
export function unavailableDependency(err: unknown, depth = 0): UnavailableDependency | null {
  if (!err || typeof err !== 'object' || depth > 4) return null;
  const e = err as ErrorLike;
  const message = typeof e.message === 'string' ? e.message : '';
  const code = typeof e.code === 'string' ? e.code : '';
  if (REDIS_NAMES.has(e.name ?? '') || REDIS_MESSAGES.some((m) => m.test(message))) return 'redis';
  if (TYPEORM_NAMES.has(e.name ?? '') || PG_MESSAGES.some((m) => m.test(message))) return 'database';
  if (PG_UNAVAILABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return 'database';
  for (const inner of [e.driverError, e.cause, ...(Array.isArray(e.errors) ? e.errors : [])]) {
    const found = unavailableDependency(inner, depth + 1);
    if (found) return found;
  }
  if (SOCKET_CODES.has(code)) return isRedisError(e) ? 'redis' : 'database';
  return null;
}

/** SQLSTATE of a write to a database made unwritable for a moment (a client being moved). */
const READ_ONLY_TRANSACTION = '25006';

/**
 * Whether `err` (in any of the forms unavailableDependency looks through) is a write refused
 * because the client's database is being moved: it was read-only or carried the move's write guard.
 */
export function writeRefusedByMove(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as ErrorLike;
  if (e.code === READ_ONLY_TRANSACTION) return true;
  return [e.driverError, e.cause].some((inner) => writeRefusedByMove(inner, depth + 1));
}

/** ioredis errors carry its class names or come from its own connector; pg's are plain Errors. */
function isRedisError(e: ErrorLike): boolean {
  return /redis/i.test(e.name ?? '') || /redis/i.test(e.message ?? '');
}
