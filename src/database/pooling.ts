import { AppConfig } from '../config/app-config';
import { DbTarget, parseDatabaseUrl } from './data-source-factory';

/**
 * Where connections go when a transaction pooler (PgBouncer, `pool_mode = transaction`) stands in
 * front of PostgreSQL. Application pools may go through it: every unit of work they run is one
 * transaction or one statement, and nothing they do outlives it. Work that needs a session of its
 * own goes to the server itself: migrations (their schema's search_path is a startup parameter and
 * they hold a session advisory lock), CREATE DATABASE, and the session advisory locks of
 * provisioning and moves.
 */

/** The master database for work that needs its own session: DATABASE_DIRECT_URL, else DATABASE_URL. */
export function masterDirectTarget(config: AppConfig): DbTarget {
  return parseDatabaseUrl(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL);
}

/** True when the master pool goes through a pooler: a direct URL is set and differs from DATABASE_URL. */
export function masterPooled(config: AppConfig): boolean {
  return !!config.DATABASE_DIRECT_URL && config.DATABASE_DIRECT_URL !== config.DATABASE_URL;
}

export interface PoolerAddress {
  host: string;
  port: number;
}

/**
 * The pooler MULTITENANCY_DB_POOLER_HOST/PORT names for the default server (MULTITENANCY_DB_HOST:
 * PORT), if any. It seeds that server's registry entry; the registry's entry is what pools use.
 */
export function defaultServerPooler(config: AppConfig): PoolerAddress | undefined {
  const host = config.MULTITENANCY_DB_POOLER_HOST;
  return host ? { host: host.toLowerCase(), port: config.MULTITENANCY_DB_POOLER_PORT } : undefined;
}

/**
 * The address an application pool of a client database uses: the pooler of its server when it has
 * one, else the server. `pooled` tells the pool to send no startup `options` (PgBouncer refuses
 * them) and to send its statements unnamed.
 */
export function clientPoolTarget(
  target: DbTarget,
  pooler: PoolerAddress | undefined,
): DbTarget & { pooled: boolean } {
  if (!pooler) return { ...target, pooled: false };
  return { ...target, host: pooler.host, port: pooler.port, pooled: true };
}
