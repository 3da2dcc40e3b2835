import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RedisService } from '../../redis/redis.service';
import { AuthState, AuthStateRepository } from './auth-state.repository';
import { AuthSettings } from './auth.settings';
import { ExpiringLru } from './expiring-lru';

export type { AuthState };

/** The life of an entry made while the Redis subscriber is down, when invalidations may be lost. */
const UNSUBSCRIBED_LIFE_MS = 5000;
const CHANNEL = 'auth:invalidate';

/**
 * What every authenticated request needs to know of its user, kept per process for as long as it
 * stays valid: every change (block, delete, confirmation, password, token version, role, company,
 * a role's permissions, a restore) invalidates it here at once and on other replicas through Redis,
 * so a user who calls once a minute costs no more than one who calls every second. When the
 * subscriber connection is lost everything is dropped, entries made until it is back live 5 s (the
 * former life), and everything is dropped again once it is back; AUTH_STATE_CACHE_SECONDS is a
 * backstop.
 */
@Injectable()
export class AuthStateCache implements OnApplicationBootstrap {
  private readonly entries: ExpiringLru<Promise<AuthState | null>>;
  private readonly clientListeners: ((client: string) => void)[] = [];

  constructor(
    private readonly redis: RedisService,
    private readonly states: AuthStateRepository,
    private readonly settings: AuthSettings,
  ) {
    this.entries = new ExpiringLru(settings.AUTH_STATE_CACHE_MAX);
  }

  /**
   * Subscribed once every module is initialised: a SUBSCRIBE sent while the shared subscriber
   * connection is still in its handshake makes ioredis fail its ready check.
   */
  async onApplicationBootstrap() {
    this.redis.onMessagesMayBeLost(() => this.entries.clear());
    await this.redis.subscribe(CHANNEL, (key) => this.drop(key));
  }

  get(client: string, userId: number, dataSource: DataSource): Promise<AuthState | null> {
    const key = `${client}:${userId}`;
    const hit = this.entries.get(key);
    if (hit) return hit;
    const state = this.states.load(dataSource.manager, userId);
    const life = this.redis.subscribed ? this.settings.AUTH_STATE_CACHE_SECONDS * 1000 : UNSUBSCRIBED_LIFE_MS;
    this.entries.set(key, state, life);
    state.catch(() => this.entries.deleteIf(key, state));
    return state;
  }

  /**
   * Called, on every replica, when a whole client is invalidated (a role's permissions, a restore
   * in place): caches of other identity data of that client drop theirs too.
   */
  onClientInvalidated(listener: (client: string) => void): void {
    this.clientListeners.push(listener);
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
    this.entries.deleteMatching((k) => k.startsWith(prefix));
    for (const listener of this.clientListeners) listener(key.slice(0, -2));
  }
}
