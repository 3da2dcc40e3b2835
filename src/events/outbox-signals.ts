import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisService } from '../redis/redis.service';

/** Channel on which a process that cannot relay its own commit wakes the relays of other replicas. */
export const WAKE_CHANNEL = 'outbox-wake';

/** How long a relay holds a tenant before another may take it over (renewed while it works). */
const LOCK_MS = 30_000;

/** Drops the signal only if no commit signalled again since `version` was read. */
const SETTLE = `
local version = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if version == ARGV[2] or version == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  return 1
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 0`;

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export interface TenantLock {
  key: string;
  token: string;
}

/**
 * The outbox's signals in Redis, shared by every replica: which tenants have events waiting
 * (`outbox:pending`, a counter per tenant bumped after each commit that published), since when
 * (`outbox:since`, milliseconds), and which relay is draining a tenant (`outbox:lock:<tenant>`).
 * A signal is dropped only by the relay that drained the tenant after reading it, so a relay that
 * dies mid-drain leaves it for the next one.
 */
@Injectable()
export class OutboxSignals {
  private readonly pendingKey: string;
  private readonly sinceKey: string;

  constructor(private readonly redis: RedisService) {
    this.pendingKey = redis.key('outbox', 'pending');
    this.sinceKey = redis.key('outbox', 'since');
  }

  /** Marks the tenant as having events waiting since `sinceMs` (kept if an older mark exists). */
  async signal(tenant: string, sinceMs = Date.now()): Promise<void> {
    const results = await this.redis.client
      .pipeline()
      .hincrby(this.pendingKey, tenant, 1)
      .hsetnx(this.sinceKey, tenant, sinceMs)
      .exec();
    const failed = results?.find(([err]) => err);
    if (failed?.[0]) throw failed[0];
  }

  async wakeOthers(tenant: string): Promise<void> {
    await this.redis.publish(WAKE_CHANNEL, tenant);
  }

  onWake(handler: (tenant: string) => void): Promise<void> {
    return this.redis.subscribe(WAKE_CHANNEL, handler);
  }

  /** Every signalled tenant with the time its oldest waiting event was signalled. */
  async pending(): Promise<Map<string, number>> {
    const [tenants, since] = await Promise.all([
      this.redis.client.hkeys(this.pendingKey),
      this.redis.client.hgetall(this.sinceKey),
    ]);
    return new Map(tenants.map((t) => [t, Number(since[t] ?? Date.now())]));
  }

  /** The tenant's signal counter, '' when it is not signalled. */
  async version(tenant: string): Promise<string> {
    return (await this.redis.client.hget(this.pendingKey, tenant)) ?? '';
  }

  /**
   * Drops the tenant's signal if it still reads `version`; otherwise a commit signalled during the
   * drain: its events are dated from `drainStartedMs` and the caller drains again.
   */
  async settle(tenant: string, version: string, drainStartedMs: number): Promise<boolean> {
    const done = await this.redis.client.eval(
      SETTLE,
      2,
      this.pendingKey,
      this.sinceKey,
      tenant,
      version,
      drainStartedMs,
    );
    return done === 1;
  }

  /** Forgets a tenant's signal whatever its version (a tenant that no longer exists). */
  async drop(tenant: string): Promise<void> {
    await this.redis.client.pipeline().hdel(this.pendingKey, tenant).hdel(this.sinceKey, tenant).exec();
  }

  async lock(tenant: string): Promise<TenantLock | null> {
    const lock = { key: this.redis.key('outbox', 'lock', tenant), token: randomUUID() };
    const ok = await this.redis.client.set(lock.key, lock.token, 'PX', LOCK_MS, 'NX');
    return ok === 'OK' ? lock : null;
  }

  async renew(lock: TenantLock): Promise<void> {
    await this.redis.client.eval(RENEW, 1, lock.key, lock.token, LOCK_MS);
  }

  async unlock(lock: TenantLock): Promise<void> {
    await this.redis.client.eval(UNLOCK, 1, lock.key, lock.token);
  }

  /** Takes the tenant's slot in a sweep period: true for the one replica that should sweep it. */
  async claimSweep(tenant: string, periodMs: number): Promise<boolean> {
    const slot = Math.floor(Date.now() / periodMs);
    const key = this.redis.key('outbox', 'swept', tenant, slot);
    return (await this.redis.client.set(key, '1', 'PX', periodMs, 'NX')) === 'OK';
  }
}
