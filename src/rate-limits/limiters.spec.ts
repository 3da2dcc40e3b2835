import { randomUUID } from 'node:crypto';
import { loadConfig } from '../config/app-config';
import { RedisService } from '../redis/redis.service';
import { RateLimiter } from './rate-limiter';

/** Both limiters against the real Redis, under a unique key prefix. */
describe('rate limiters (one Limiter shape)', () => {
  const redis = new RedisService(loadConfig({ REDIS_PREFIX: `spec-${randomUUID().slice(0, 8)}` }));
  const limits = new RateLimiter(redis);

  afterAll(async () => {
    // The fixed-window storage wraps its keys in a {hash tag}, so they start with "{" + the prefix.
    for (const pattern of [redis.key('*'), `{${redis.key('*')}`]) {
      const keys = await redis.client.keys(pattern);
      if (keys.length) await redis.client.del(...keys);
    }
    await redis.onModuleDestroy();
  });

  it('fixed window: grants up to the limit, then answers how long to wait', async () => {
    const window = limits.window('spec-window', 3, 60);
    expect(await window.take(['user', 1], 2)).toEqual({ granted: 2, retryAfterMs: 0 });
    const over = await window.take(['user', 1], 2);
    expect(over.granted).toBe(1);
    expect(over.retryAfterMs).toBeGreaterThan(0);
    expect((await window.take(['user', 2])).granted).toBe(1);
    // The same counters as consume()/allow() under the same name and key.
    expect(await limits.allow('spec-window', { key: ['user', 2], limit: 3, windowSeconds: 60 })).toBe(true);
  });

  it('token bucket: a burst, a refill at the rate, and refunds', async () => {
    // 2 tokens a second: the exact steps below stay exact unless a step is held for 500 ms.
    const bucket = limits.bucket('spec-bucket', 2, 5);
    expect(await bucket.take('acme', 8)).toEqual({ granted: 5, retryAfterMs: 500 });
    expect((await bucket.take('acme')).granted).toBe(0);
    await bucket.refund('acme', 2);
    expect((await bucket.take('acme', 3)).granted).toBe(2);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await bucket.take('acme', 5)).granted).toBeGreaterThanOrEqual(2);
    expect((await bucket.take('other', 5)).granted).toBe(5);
  });
});
