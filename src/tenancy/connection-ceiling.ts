import type { ClientConnectionPool } from './client-connection-pool';
import { TenantConnectionMetrics } from './tenant-connection-metrics';

/**
 * Counts every client-database connection of this process (opening, open or closing) against
 * TENANT_CONNECTION_CEILING. When it is reached, idle connections are closed to make room, least
 * recently used first and a client's last one only when no client holds a spare; pools that still
 * find no room wait here and get it, oldest first, as connections close.
 *
 * Near the ceiling a tenth of it is kept free: idle connections start closing before the room is
 * needed, so a client without a connection opens one at once instead of first waiting for another
 * to close (one more round trip per request when more clients are active than the ceiling holds).
 */
export class ConnectionCeiling {
  private held = 0;
  private closing = 0;
  private readonly headroom: number;
  private readonly blocked: ClientConnectionPool[] = [];
  /** Pools holding at least one connection. */
  readonly pools = new Set<ClientConnectionPool>();

  constructor(
    readonly limit: number,
    private readonly metrics: TenantConnectionMetrics,
  ) {
    this.headroom = Math.floor(limit / 10);
  }

  get count(): number {
    return this.held;
  }

  /** Room for one more connection now, or false after starting to close an idle one to make it. */
  tryTake(): boolean {
    if (this.held < this.limit) {
      this.held++;
      this.keepHeadroom();
      return true;
    }
    this.evictOneIdle();
    return false;
  }

  /** A connection closed or failed to open: its room goes to the pool that waited longest. */
  give(): void {
    this.held--;
    while (this.held < this.limit && this.blocked.length) {
      const pool = this.blocked.shift()!;
      if (!pool.wantsRoom()) continue;
      this.held++;
      pool.openForWaiter();
      if (pool.wantsRoom()) this.blocked.push(pool);
    }
  }

  /** An open connection starts closing; `closed()` gives its room back once it has. */
  closingOne(): void {
    this.closing++;
  }

  closed(): void {
    this.closing--;
    this.give();
  }

  /** Starts closing the least recently used idle connection when the free room is under the headroom. */
  keepHeadroom(): void {
    if (this.held - this.closing > this.limit - this.headroom) this.evictOneIdle();
  }

  /** `pool` has waiters and room of its own, but the ceiling is full. */
  waitForRoom(pool: ClientConnectionPool): void {
    if (!this.blocked.includes(pool)) this.blocked.push(pool);
  }

  /** Whether a pool other than `pool` waits for room: then a connection `pool` frees closes. */
  othersWaiting(pool: ClientConnectionPool): boolean {
    return this.blocked.some((p) => p !== pool && p.wantsRoom());
  }

  evicted(reason: 'idle' | 'ceiling'): void {
    this.metrics.evictions.inc({ reason });
  }

  private evictOneIdle(): void {
    let spare: ClientConnectionPool | undefined;
    let last: ClientConnectionPool | undefined;
    for (const pool of this.pools) {
      const since = pool.oldestIdleSince();
      if (since === undefined) continue;
      if (pool.totalCount > 1) {
        if (!spare || since < spare.oldestIdleSince()!) spare = pool;
      } else if (!last || since < last.oldestIdleSince()!) last = pool;
    }
    (spare ?? last)?.closeOldestIdle('ceiling');
  }
}
