import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { RedisService } from '../redis/redis.service';
import { Grant, LimitKey, limitKey, Limiter } from './limiter';
import { TokenBucket } from './token-bucket';

export interface Limit {
  /** Key parts; hashed so no caller-supplied text reaches Redis key names raw. */
  key: (string | number)[];
  limit: number;
  windowSeconds: number;
}

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(429, 'RATE_LIMITED', 'Too many attempts; try again later', undefined, {
    'Retry-After': String(Math.max(1, retryAfterSeconds)),
  });

/**
 * The Redis-backed limits (see limiter.ts for the shape they share). Fixed-window counters go
 * through the @nestjs/throttler Redis storage, so every replica counts the same attempts. Keys are
 * built by the callers from the trusted client address and normalised identifiers only.
 */
@Injectable()
export class RateLimiter {
  private readonly storage: ThrottlerStorageRedisService;

  constructor(private readonly redis: RedisService) {
    this.storage = new ThrottlerStorageRedisService(redis.client);
  }

  /** Counts one hit on every limit; throws 429 RATE_LIMITED with Retry-After when one is exceeded. */
  async consume(name: string, limits: Limit[]): Promise<void> {
    let retryAfter = 0;
    for (const limit of limits) retryAfter = Math.max(retryAfter, await this.hit(name, limit));
    if (retryAfter > 0) throw rateLimited(retryAfter);
  }

  /** Counts one hit; true while under the limit. */
  async allow(name: string, limit: Limit): Promise<boolean> {
    return (await this.hit(name, limit)) === 0;
  }

  /** A fixed window as a Limiter: `limit` units per `windowSeconds` and key. */
  window(name: string, limit: number, windowSeconds: number): Limiter {
    return {
      take: async (key: LimitKey, want = 1): Promise<Grant> => {
        const parts = typeof key === 'string' ? [key] : [...key];
        let retryAfter = 0;
        let granted = 0;
        while (granted < want && retryAfter === 0) {
          retryAfter = await this.hit(name, { key: parts, limit, windowSeconds });
          if (retryAfter === 0) granted++;
        }
        return { granted, retryAfterMs: retryAfter * 1000 };
      },
    };
  }

  /** A token bucket: `perSecond` units per second and key, bursts up to `burst`. */
  bucket(name: string, perSecond: number, burst = perSecond): TokenBucket {
    return new TokenBucket(this.redis, name, perSecond, burst);
  }

  private key(name: string, limit: Limit) {
    return this.redis.key('rl', name, limitKey(limit.key));
  }

  /** Seconds the key stays blocked, 0 when the hit is allowed. */
  private async hit(name: string, limit: Limit): Promise<number> {
    const ms = limit.windowSeconds * 1000;
    const record = await this.storage.increment(this.key(name, limit), ms, limit.limit, ms, name);
    return record.isBlocked ? Math.max(1, record.timeToBlockExpire) : 0;
  }
}
