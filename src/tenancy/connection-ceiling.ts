import type { ClientConnectionPool } from './client-connection-pool';
import { TenantConnectionMetrics } from './tenant-connection-metrics';

/** How long after the ceiling was last found full the headroom is kept. */
const PRESSED_MS = 30_000;

/**
 * Counts every client-database connection of this process (opening, open or closing) against
 * TENANT_CONNECTION_CEILING. When it is reached, idle connections are closed to make room, least
 * recently used first and a client's last one only when no client holds a spare; pools that still
 * find no room wait here and get it, oldest first, as connections close.
 *
 * Near the ceiling a tenth of it is kept free, from spare connections only (a client's second or
 * later): they start closing before the room is needed, so a client without a connection opens one
 * at once instead of first waiting for another to close. Only while the ceiling was found full in
 * the last PRESSED_MS. A client's last connection closes only when the ceiling is full: when every
 * active client fits, closing the least recently used one would close the one needed next (requests
 * that rotate over the clients), and every request would open a connection again.
 *
 * Beside the ceiling, each database server may have a budget in this process (`budgetOf`, from the
 * server registry): the connections to that server's clients stay under it, and a pool whose server
 * is at its budget waits for room there (an idle connection to that server closes to make it).
 */
export class ConnectionCeiling {
  private held = 0;
  private pressedAt = -Infinity;
  private closing = 0;
  private readonly headroom: number;
  private readonly blocked: ClientConnectionPool[] = [];
  private readonly heldByServer = new Map<number, number>();
  /** Pools holding at least one connection. */
  readonly pools = new Set<ClientConnectionPool>();

  constructor(
    readonly limit: number,
    private readonly metrics: TenantConnectionMetrics,
    /** The most connections this process may hold to a server's clients; undefined: the ceiling only. */
    private readonly budgetOf: (serverId: number) => number | undefined = () => undefined,
  ) {
    this.headroom = Math.floor(limit / 10);
  }

  get count(): number {
    return this.held;
  }

  /** Connections held to each server's clients (clients without a server aside). */
  heldPerServer(): ReadonlyMap<number, number> {
    return this.heldByServer;
  }

  /** Room for one more connection of `pool` now, or false after starting to close an idle one to make it. */
  tryTake(pool: ClientConnectionPool): boolean {
    if (this.held >= this.limit) {
      this.pressedAt = Date.now();
      this.evictOneIdle();
      return false;
    }
    if (this.serverFull(pool)) {
      this.evictOneIdle(pool.serverId);
      return false;
    }
    this.take(pool);
    this.keepHeadroom();
    return true;
  }

  /** A connection of `pool` closed or failed to open: the room goes to the pool that waited longest. */
  give(pool: ClientConnectionPool): void {
    this.held--;
    if (pool.serverId !== null) {
      this.heldByServer.set(pool.serverId, (this.heldByServer.get(pool.serverId) ?? 1) - 1);
    }
    for (let i = 0; this.held < this.limit && i < this.blocked.length;) {
      const waiting = this.blocked[i];
      if (!waiting.wantsRoom()) {
        this.blocked.splice(i, 1);
      } else if (this.serverFull(waiting)) {
        i++; // its server's budget is spent: the room goes to the next one
      } else {
        this.blocked.splice(i, 1);
        this.take(waiting);
        waiting.openForWaiter();
        if (waiting.wantsRoom()) this.blocked.push(waiting);
      }
    }
  }

  /** An open connection starts closing; `closed()` gives its room back once it has. */
  closingOne(): void {
    this.closing++;
  }

  closed(pool: ClientConnectionPool): void {
    this.closing--;
    this.give(pool);
  }

  /** Starts closing the least recently used idle spare when the free room is under the headroom. */
  keepHeadroom(): void {
    if (this.held - this.closing <= this.limit - this.headroom) return;
    if (Date.now() - this.pressedAt < PRESSED_MS) this.evictOneIdle(undefined, true);
  }

  /** `pool` has waiters and room of its own, but the ceiling or its server's budget is full. */
  waitForRoom(pool: ClientConnectionPool): void {
    if (!this.blocked.includes(pool)) this.blocked.push(pool);
  }

  /**
   * Whether a pool other than `pool` waits for room a connection of `pool` would free (same server,
   * or the ceiling is full): then that connection closes instead of serving `pool` again.
   */
  othersWaiting(pool: ClientConnectionPool): boolean {
    const ceilingFull = this.held >= this.limit;
    return this.blocked.some(
      (p) =>
        p !== pool && p.wantsRoom() && (ceilingFull || (p.serverId !== null && p.serverId === pool.serverId)),
    );
  }

  evicted(reason: 'idle' | 'ceiling'): void {
    this.metrics.evictions.inc({ reason });
  }

  private take(pool: ClientConnectionPool): void {
    this.held++;
    if (pool.serverId !== null) {
      this.heldByServer.set(pool.serverId, (this.heldByServer.get(pool.serverId) ?? 0) + 1);
    }
  }

  private serverFull(pool: ClientConnectionPool): boolean {
    if (pool.serverId === null) return false;
    const budget = this.budgetOf(pool.serverId);
    return budget !== undefined && (this.heldByServer.get(pool.serverId) ?? 0) >= budget;
  }

  /** Least recently used first, a client's last connection only when no client holds a spare (never with `spareOnly`). */
  private evictOneIdle(serverId?: number | null, spareOnly = false): void {
    let spare: ClientConnectionPool | undefined;
    let last: ClientConnectionPool | undefined;
    for (const pool of this.pools) {
      if (serverId !== undefined && pool.serverId !== serverId) continue;
      const since = pool.oldestIdleSince();
      if (since === undefined) continue;
      if (pool.totalCount > 1) {
        if (!spare || since < spare.oldestIdleSince()!) spare = pool;
      } else if (!last || since < last.oldestIdleSince()!) last = pool;
    }
    (spare ?? (spareOnly ? undefined : last))?.closeOldestIdle('ceiling');
  }
}
