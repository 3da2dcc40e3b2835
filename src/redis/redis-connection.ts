import type { RedisOptions } from 'ioredis';
import { AppConfig } from '../config/app-config';
import { redisOptionsFromUrl } from '../config/redis-url';

/** Longest pause between two reconnection attempts: a failover is followed within about this much. */
const MAX_RECONNECT_DELAY_MS = 2000;

const parsed = new Map<string, RedisOptions>();

/**
 * The options every Redis connection of the process starts from (RedisService's and every Bull
 * queue's client, subscriber and blocking connection), read once from `REDIS_URL`.
 *
 * Behind Sentinel each (re)connection asks the Sentinels for the current primary. A connection
 * still open on a former primary answers writes with READONLY: it reconnects (to the new primary)
 * and sends the refused command again, which is safe because a refused command did nothing.
 */
export function redisConnectionOptions(config: Pick<AppConfig, 'REDIS_URL'>): RedisOptions {
  let options = parsed.get(config.REDIS_URL);
  if (!options) {
    options = {
      ...redisOptionsFromUrl(config.REDIS_URL),
      retryStrategy: (attempt: number) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
      reconnectOnError: (err: Error) => (err.message.startsWith('READONLY') ? 2 : false),
    };
    parsed.set(config.REDIS_URL, options);
  }
  return { ...options };
}
