import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import { RedisService } from '../../redis/redis.service';

/**
 * node-saml's request-id cache in Redis (shared by every replica): remembers the AuthnRequest ids
 * we sent so a response's InResponseTo must name one.
 */
export class RedisSamlCache implements CacheProvider {
  constructor(
    private readonly redis: RedisService,
    private readonly ttlSeconds: number,
  ) {}

  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    const ok = await this.redis.client.set(this.key(key), value, 'EX', this.ttlSeconds, 'NX');
    return ok ? { value, createdAt: Date.now() } : null;
  }

  getAsync(key: string): Promise<string | null> {
    return this.redis.client.get(this.key(key));
  }

  async removeAsync(key: string | null): Promise<string | null> {
    if (!key) return null;
    return this.redis.client.getdel(this.key(key));
  }

  private key(id: string) {
    return this.redis.key('sso', 'saml-request', id);
  }
}
