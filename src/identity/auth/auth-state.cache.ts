import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RedisService } from '../../redis/redis.service';
import { AuthState, AuthStateRepository } from './auth-state.repository';

const TTL_MS = 5000;
const CHANNEL = 'auth:invalidate';

/**
 * What every authenticated request needs to know of its user, cached for a few seconds per process.
 * A change (block, delete, password, role) invalidates it here at once and on other replicas
 * through Redis.
 */
@Injectable()
export class AuthStateCache implements OnApplicationBootstrap {
  private readonly entries = new Map<string, { state: Promise<AuthState | null>; expires: number }>();

  constructor(
    private readonly redis: RedisService,
    private readonly states: AuthStateRepository,
  ) {}

  /**
   * Subscribed once every module is initialised: a SUBSCRIBE sent while the shared subscriber
   * connection is still in its handshake makes ioredis fail its ready check.
   */
  async onApplicationBootstrap() {
    await this.redis.subscribe(CHANNEL, (key) => this.drop(key));
  }

  get(client: string, userId: number, dataSource: DataSource): Promise<AuthState | null> {
    const key = `${client}:${userId}`;
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.state;
    const state = this.states.load(dataSource.manager, userId);
    this.entries.set(key, { state, expires: Date.now() + TTL_MS });
    state.catch(() => this.entries.delete(key));
    if (this.entries.size > 50_000) this.entries.delete(this.entries.keys().next().value!);
    return state;
  }

  /** Forget one user (or, with no user, a whole client) everywhere. */
  async invalidate(client: string, userId?: number): Promise<void> {
    const key = userId === undefined ? `${client}:*` : `${client}:${userId}`;
    this.drop(key);
    await this.redis.publish(CHANNEL, key);
  }

  private drop(key: string) {
    if (!key.endsWith(':*')) {
      this.entries.delete(key);
      return;
    }
    const prefix = key.slice(0, -1);
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k);
  }
}
