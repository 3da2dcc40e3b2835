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

/**
 * The address an application pool of a client database uses: the pooler of its server when one is
 * configured (only MULTITENANCY_DB_HOST:PORT has one), else the server. `pooled` tells the pool to
 * send no startup `options` (PgBouncer refuses them).
 */
export function clientPoolTarget(config: AppConfig, target: DbTarget): DbTarget & { pooled: boolean } {
  const host = config.MULTITENANCY_DB_POOLER_HOST;
  const defaultServer =
    target.host.toLowerCase() === config.MULTITENANCY_DB_HOST.toLowerCase() &&
    target.port === config.MULTITENANCY_DB_PORT;
  if (!host || !defaultServer) return { ...target, pooled: false };
  return { ...target, host, port: config.MULTITENANCY_DB_POOLER_PORT, pooled: true };
}
