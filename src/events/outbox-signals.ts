import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisService } from '../redis/redis.service';

/** Channel on which a process that cannot relay its own commit wakes the relays of other replicas. */
export const WAKE_CHANNEL = 'outbox-wake';

/** How long a relay holds a tenant before another may take it over (renewed while it works). */
const LOCK_MS = 30_000;

/**
 * Takes the tenant's lock when free and answers the signal's version read under it ('' when not
 * signalled), or nil when another relay holds it: one round trip for both.
 */
const LOCK = `
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then
  return redis.call('HGET', KEYS[2], ARGV[3]) or ''
end
return false`;

/** `signal` and `LOCK` in one call: the relay of the committing process drains at once. */
const SIGNAL_AND_LOCK = `
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
if redis.call('SET', KEYS[3], ARGV[3], 'PX', ARGV[4], 'NX') then
  return redis.call('HGET', KEYS[1], ARGV[1])
end
return false`;

/**
 * Ends a drain in one round trip. If no commit signalled since `version` was read: drops the signal,
 * releases the lock and answers nil. Otherwise dates the newer events from the drain's start, renews
 * the lock and answers the newer version, to drain again.
 */
const SETTLE = `
local version = redis.call('HGET', KEYS[1], ARGV[1]) or ''
local held = redis.call('GET', KEYS[3]) == ARGV[4]
if version == ARGV[2] or version == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  if held then redis.call('DEL', KEYS[3]) end
  return false
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
if held then redis.call('PEXPIRE', KEYS[3], ARGV[5]) end
return version`;

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export interface TenantLock {
  key: string;
  token: string;
}

/** A tenant's lock, with the signal's version read when it was taken. */
export interface HeldTenant {
  lock: TenantLock;
  version: string;
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

  /**
   * `signal`, then `lock` when the tenant's lock is free, in one round trip: answers the lock with the
   * version read under it, or null when another relay holds the tenant (it sees the new signal).
   */
  async signalAndLock(tenant: string, sinceMs = Date.now()): Promise<HeldTenant | null> {
    const lock = this.newLock(tenant);
    const keys = [this.pendingKey, this.sinceKey, lock.key];
    const version = (await this.redis.client.eval(
      SIGNAL_AND_LOCK,
      keys.length,
      ...keys,
      tenant,
      sinceMs,
      lock.token,
      LOCK_MS,
    )) as string | null;
    return version === null ? null : { lock, version: String(version) };
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

  /**
   * Ends a drain that began at `drainStartedMs` after reading `version`: drops the signal and
   * releases the lock (answers null) when no commit signalled meanwhile; otherwise a commit signalled
   * during the drain: its events are dated from the drain's start, the lock is renewed and the newer
   * version answered, and the caller drains again.
   */
  async settle(
    tenant: string,
    lock: TenantLock,
    version: string,
    drainStartedMs: number,
  ): Promise<string | null> {
    const keys = [this.pendingKey, this.sinceKey, lock.key];
    const args = [tenant, version, drainStartedMs, lock.token, LOCK_MS];
    return (await this.redis.client.eval(SETTLE, keys.length, ...keys, ...args)) as string | null;
  }

  /** Forgets a tenant's signal whatever its version (a tenant that no longer exists). */
  async drop(tenant: string): Promise<void> {
    await this.redis.client.pipeline().hdel(this.pendingKey, tenant).hdel(this.sinceKey, tenant).exec();
  }

  /** Takes the tenant's lock when free, with the signal's version read under it ('' when none). */
  async lock(tenant: string): Promise<HeldTenant | null> {
    const lock = this.newLock(tenant);
    const keys = [lock.key, this.pendingKey];
    const version = (await this.redis.client.eval(
      LOCK,
      keys.length,
      ...keys,
      lock.token,
      LOCK_MS,
      tenant,
    )) as string | null;
    return version === null ? null : { lock, version };
  }

  private newLock(tenant: string): TenantLock {
    return { key: this.redis.key('outbox', 'lock', tenant), token: randomUUID() };
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
