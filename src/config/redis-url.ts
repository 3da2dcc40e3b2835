import { registerDecorator, ValidationArguments } from 'class-validator';
import type { RedisOptions } from 'ioredis';

/** A Sentinel daemon's port when the URL names none. */
export const SENTINEL_DEFAULT_PORT = 26379;
const REDIS_DEFAULT_PORT = 6379;
const SCHEMES = ['redis:', 'rediss:', 'redis+sentinel:', 'rediss+sentinel:'];
const HOST_PORT = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::(\d{1,5}))?$/i;
const GROUP_NAME = /^[A-Za-z0-9._-]{1,64}$/;
const SENTINEL_PARAMS = ['sentinel_username', 'sentinel_password'];

export class RedisUrlError extends Error {}

/**
 * ioredis options for `REDIS_URL`, read once so that every connection of the process (commands,
 * subscriptions, every Bull queue's three) reaches the same Redis the same way:
 *
 * - `redis://[[user]:password@]host[:port][/db]` (`rediss://` for TLS): one server;
 * - `redis+sentinel://[[user]:password@]host[:port][,host[:port]…]/group[/db][?sentinel_password=…]`
 *   (`rediss+sentinel://` for TLS to the data nodes and the Sentinels): the primary of a Sentinel
 *   group, asked of the listed Sentinels (port 26379 by default) at every (re)connection, so a
 *   failover is followed. The user and password are the data nodes'; `sentinel_username` and
 *   `sentinel_password` authenticate to the Sentinels when they require it.
 *
 * Throws a RedisUrlError saying what is wrong; never echoes the URL (it may hold a password).
 */
export function redisOptionsFromUrl(raw: string): RedisOptions {
  const scheme = /^([a-z+]+:)\/\//i.exec(raw)?.[1]?.toLowerCase();
  if (!scheme || !SCHEMES.includes(scheme)) {
    throw new RedisUrlError('must be a redis://, rediss://, redis+sentinel:// or rediss+sentinel:// URL');
  }
  const tls = scheme.startsWith('rediss');
  const sentinel = scheme.endsWith('+sentinel:');
  // The WHATWG parser takes one host only: the host list is read here, the rest by URL.
  const rest = raw.slice(scheme.length + 2);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  const userInfo = at < 0 ? '' : authority.slice(0, at);
  const hostList = authority.slice(at + 1);
  let url: URL;
  try {
    url = new URL(`redis://${userInfo ? `${userInfo}@` : ''}placeholder${rest.slice(authority.length)}`);
  } catch {
    throw new RedisUrlError('is not a well-formed URL');
  }
  const credentials = {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
  };
  const path = url.pathname.split('/').filter(Boolean);
  const hosts = hostList.split(',').map((entry) => hostAndPort(entry, sentinel));
  const unknown = [...url.searchParams.keys()].filter((key) => !sentinel || !SENTINEL_PARAMS.includes(key));
  if (unknown.length) throw new RedisUrlError(`does not take the parameter(s) ${unknown.join(', ')}`);
  const tlsOptions = tls ? { tls: {} } : {};

  if (!sentinel) {
    if (hosts.length !== 1) throw new RedisUrlError('names several hosts: use redis+sentinel:// for a group');
    if (path.length > 1) throw new RedisUrlError('has a path other than /<db>');
    return { ...hosts[0], ...credentials, db: database(path[0]), ...tlsOptions };
  }
  const [name, db, ...extra] = path;
  if (!name || !GROUP_NAME.test(name) || extra.length) {
    throw new RedisUrlError(
      'must name the Sentinel group as its path: redis+sentinel://host:26379/<group>[/<db>]',
    );
  }
  const sentinelUsername = url.searchParams.get('sentinel_username');
  const sentinelPassword = url.searchParams.get('sentinel_password');
  return {
    sentinels: hosts,
    name,
    ...credentials,
    db: database(db),
    ...(sentinelUsername ? { sentinelUsername } : {}),
    ...(sentinelPassword ? { sentinelPassword } : {}),
    ...tlsOptions,
    ...(tls ? { enableTLSForSentinelMode: true } : {}),
  };
}

/** What is wrong with a `REDIS_URL`, or null when it is usable. */
export function redisUrlProblem(raw: unknown): string | null {
  if (typeof raw !== 'string') return 'must be a string';
  try {
    redisOptionsFromUrl(raw);
    return null;
  } catch (err) {
    if (err instanceof RedisUrlError) return err.message;
    throw err;
  }
}

function hostAndPort(entry: string, sentinel: boolean): { host: string; port: number } {
  const match = HOST_PORT.exec(entry.trim());
  if (!match) throw new RedisUrlError(entry ? 'has a malformed host' : 'names no host');
  const port = match[2] ? Number(match[2]) : sentinel ? SENTINEL_DEFAULT_PORT : REDIS_DEFAULT_PORT;
  if (port < 1 || port > 65535) throw new RedisUrlError('has a port outside 1-65535');
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

function database(segment: string | undefined): number {
  if (segment === undefined) return 0;
  if (!/^\d{1,2}$/.test(segment)) throw new RedisUrlError('must end in /<db>, a database number');
  return Number(segment);
}

/** class-validator rule for `REDIS_URL`: the message says what is wrong, never the URL itself. */
export function IsRedisUrl(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isRedisUrl',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => redisUrlProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => redisUrlProblem(args?.value) ?? 'is not usable',
      },
    });
}
