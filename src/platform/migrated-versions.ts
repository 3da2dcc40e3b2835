import { Injectable } from '@nestjs/common';
import { RedisService } from '../redis/redis.service';

/**
 * The newest client migration each client's production schema was found at by the last migration
 * job or start-up check in any replica (one Redis hash), so migration status reads one hash instead
 * of opening a connection to every client database. A client missing from it is asked directly.
 */
@Injectable()
export class MigratedVersions {
  constructor(private readonly redis: RedisService) {}

  async record(identifier: string, version: string | null): Promise<void> {
    await this.redis.client.hset(this.key(), identifier, version ?? '');
  }

  /** The recorded version of each identifier (`null`: none applied), absent when never recorded. */
  async of(identifiers: string[]): Promise<Map<string, string | null>> {
    const found = new Map<string, string | null>();
    if (!identifiers.length) return found;
    const versions = await this.redis.client.hmget(this.key(), ...identifiers);
    identifiers.forEach((identifier, i) => {
      const version = versions[i];
      if (version !== null) found.set(identifier, version || null);
    });
    return found;
  }

  async forget(identifier: string): Promise<void> {
    await this.redis.client.hdel(this.key(), identifier);
  }

  private key(): string {
    return this.redis.key('platform', 'migrated-versions');
  }
}
