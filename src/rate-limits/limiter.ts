import { sha256 } from '../common/crypto/token-hash';

/**
 * The one shape of every rate limit: take units for a key, learn how many were granted and, when
 * fewer than asked, how long to wait. Implementations count in Redis so every replica shares them:
 * - RateLimiter.window(name, limit, windowSeconds): fixed window (login attempts, per-user quotas);
 * - RateLimiter.bucket(name, perSecond): token bucket, smooth rate with a burst (event relay).
 * Key parts are hashed before they reach Redis key names.
 */
export interface Limiter {
  take(key: LimitKey, want?: number): Promise<Grant>;
}

/** What is counted: e.g. ['user', 42] or a tenant identifier. */
export type LimitKey = string | readonly (string | number)[];

export interface Grant {
  /** Units granted, 0..want. */
  granted: number;
  /** When fewer than `want` were granted: milliseconds until the next unit is available. */
  retryAfterMs: number;
}

/** A limiter whose unused units can be handed back (token bucket). */
export interface RefundableLimiter extends Limiter {
  refund(key: LimitKey, count: number): Promise<void>;
}

/** The Redis key part of a LimitKey: a hash, so no caller-supplied text reaches key names raw. */
export const limitKey = (key: LimitKey) => sha256(typeof key === 'string' ? key : key.join('\u0000'));
