import { DataSource } from 'typeorm';
import { RedisService } from '../../redis/redis.service';
import { AuthStateCache } from './auth-state.cache';
import { AuthStateRepository } from './auth-state.repository';
import { AuthSettings } from './auth.settings';

/** A RedisService stand-in: publish reaches every subscriber, a reconnect can be played. */
function fakeRedis() {
  const handlers = new Map<string, ((m: string) => void)[]>();
  const gaps: (() => void)[] = [];
  const redis = {
    subscribed: true,
    subscribe: async (channel: string, handler: (m: string) => void) => {
      handlers.set(channel, [...(handlers.get(channel) ?? []), handler]);
    },
    publish: async (channel: string, message: string) => {
      for (const h of handlers.get(channel) ?? []) h(message);
    },
    onMessagesMayBeLost: (listener: () => void) => gaps.push(listener),
    lose: () => {
      redis.subscribed = false;
      gaps.forEach((l) => l());
    },
    reconnect: () => {
      redis.subscribed = true;
      gaps.forEach((l) => l());
    },
  };
  return redis;
}

function countingDataSource() {
  const ds = {
    reads: 0,
    query: async (_sql: string, [id]: [number]) => {
      ds.reads++;
      return [
        {
          id,
          email: `u${id}@x.test`,
          username: null,
          company_id: 1,
          blocked: false,
          deleted_at: null,
          confirmed: true,
          token_version: 0,
          role_id: 1,
          type: 'VIEWER',
          permissions: ['units:read'],
        },
      ];
    },
    get manager() {
      return ds;
    },
  };
  return ds;
}

describe('AuthStateCache', () => {
  const settings = Object.assign(new AuthSettings(), { AUTH_STATE_CACHE_MAX: 100 });

  async function cache() {
    const redis = fakeRedis();
    const c = new AuthStateCache(redis as unknown as RedisService, new AuthStateRepository(), settings);
    await c.onApplicationBootstrap();
    return { c, redis, ds: countingDataSource() };
  }

  it('keeps a state past 5 s until it is invalidated', async () => {
    const { c, ds } = await cache();
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    await c.get('acme', 1, ds as unknown as DataSource);
    now.mockReturnValue(1_000_000 + 60_000);
    await c.get('acme', 1, ds as unknown as DataSource);
    expect(ds.reads).toBe(1);
    await c.invalidate('acme', 1);
    await c.get('acme', 1, ds as unknown as DataSource);
    expect(ds.reads).toBe(2);
    now.mockReturnValue(1_000_000 + 60_000 + settings.AUTH_STATE_CACHE_SECONDS * 1000 + 1);
    await c.get('acme', 1, ds as unknown as DataSource);
    expect(ds.reads).toBe(3);
    now.mockRestore();
  });

  it('drops every state when the subscriber is lost and when it is back, keeping states 5 s meanwhile', async () => {
    const { c, redis, ds } = await cache();
    const now = jest.spyOn(Date, 'now').mockReturnValue(2_000_000);
    await c.get('acme', 1, ds as unknown as DataSource);
    redis.lose();
    await c.get('acme', 1, ds as unknown as DataSource);
    expect(ds.reads).toBe(2);
    now.mockReturnValue(2_000_000 + 4000);
    await c.get('acme', 1, ds as unknown as DataSource);
    expect(ds.reads).toBe(2);
    now.mockReturnValue(2_000_000 + 5001);
    await c.get('acme', 1, ds as unknown as DataSource);
    expect(ds.reads).toBe(3);

    redis.reconnect();
    await c.get('acme', 1, ds as unknown as DataSource);
    expect(ds.reads).toBe(4);
    now.mockReturnValue(2_000_000 + 60_000);
    await c.get('acme', 1, ds as unknown as DataSource);
    expect(ds.reads).toBe(4);
    now.mockRestore();
  });

  it('forgets a whole client, and the least recently used user past its size', async () => {
    const { c, ds } = await cache();
    for (let id = 1; id <= 100; id++) await c.get('acme', id, ds as unknown as DataSource);
    await c.get('acme', 1, ds as unknown as DataSource); // 1 is now the most recently used
    await c.get('beta', 1, ds as unknown as DataSource); // 2 goes
    expect(ds.reads).toBe(101);
    await c.get('acme', 1, ds as unknown as DataSource);
    await c.get('acme', 2, ds as unknown as DataSource);
    expect(ds.reads).toBe(102);
    await c.invalidate('acme');
    await c.get('beta', 1, ds as unknown as DataSource);
    await c.get('acme', 1, ds as unknown as DataSource);
    expect(ds.reads).toBe(103);
  });
});
