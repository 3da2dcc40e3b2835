import { Client as PgConnection, ClientConfig } from 'pg';
import { AppError } from '../common/errors/app-error';
import type { PgPool } from '../database/pg-pool';
import { ConnectionCeiling } from './connection-ceiling';
import { TenantConnectionMetrics } from './tenant-connection-metrics';

export interface ClientPoolSettings {
  connection: ClientConfig;
  /** Most connections of this client (TENANT_POOL_MAX). */
  max: number;
  /** Most units of work waiting for one of them (TENANT_POOL_QUEUE_MAX). */
  queueMax: number;
  waitMs: number;
  /**
   * Called when the server refuses this database to the client's login (its right to connect was
   * taken away, or the database is gone): the client has moved, and the caller looks it up again.
   */
  onRefused?: () => void;
}

/** SQLSTATEs of a login refused a database: no CONNECT right, no such database. */
const REFUSED_DATABASE = new Set(['42501', '3D000']);

interface Waiter {
  since: number;
  timer: NodeJS.Timeout;
  resolve(connection: PgConnection): void;
  reject(err: unknown): void;
}

interface IdleConnection {
  connection: PgConnection;
  since: number;
}

type Release = (err?: unknown) => void;

export const connectionsBusy = (message: string) =>
  new AppError(503, 'SERVICE_UNAVAILABLE', message, undefined, { 'Retry-After': '1' });

/**
 * One client database's connections, under the process-wide ConnectionCeiling. Stands in for pg's
 * Pool under a TypeORM DataSource (`connect(callback)`, `end()`) and answers `query()` itself.
 * Opens a connection only for a unit of work that finds none idle; at most `queueMax` units wait,
 * more (or one waiting past `waitMs`) answer 503 with Retry-After.
 */
export class ClientConnectionPool implements PgPool {
  private readonly idle: IdleConnection[] = []; // most recently released last
  private readonly waiters: Waiter[] = [];
  private readonly broken = new WeakSet<PgConnection>();
  private busy = 0;
  private opening = 0;
  private ended = false;
  lastUsed = Date.now();

  constructor(
    readonly identifier: string,
    /** The database server the client lives on (its connection budget), null when not registered. */
    readonly serverId: number | null,
    private readonly settings: ClientPoolSettings,
    private readonly ceiling: ConnectionCeiling,
    private readonly metrics: TenantConnectionMetrics,
  ) {}

  get totalCount(): number {
    return this.idle.length + this.busy + this.opening;
  }

  get idleCount(): number {
    return this.idle.length;
  }

  get waitingCount(): number {
    return this.waiters.length;
  }

  /** pg Pool's callback form, which TypeORM's driver calls. */
  connect(callback: (err: unknown, connection?: PgConnection, release?: Release) => void): void {
    this.acquire().then(
      (connection) => callback(undefined, connection, (err?: unknown) => this.release(connection, err)),
      (err) => callback(err),
    );
  }

  async query(sql: string, params: unknown[]): Promise<{ rows: unknown[] }> {
    const connection = await this.acquire();
    try {
      const result = await connection.query(sql, params);
      this.release(connection);
      return result;
    } catch (err) {
      this.release(connection, err);
      throw err;
    }
  }

  /** Closes idle connections now, the others when they are released; waiters are turned away. */
  end(callback?: (err?: unknown) => void): Promise<void> {
    this.ended = true;
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(connectionsBusy('The client database is being closed; try again shortly'));
    }
    const closed = Promise.all(this.idle.splice(0).map(({ connection }) => this.close(connection)));
    return closed.then(() => callback?.());
  }

  oldestIdleSince(): number | undefined {
    return this.idle[0]?.since;
  }

  closeOldestIdle(reason: 'idle' | 'ceiling'): void {
    const oldest = this.idle.shift();
    if (!oldest) return;
    this.ceiling.evicted(reason);
    void this.close(oldest.connection);
  }

  /** Closes connections idle since before `cutoff` (TENANT_POOL_IDLE_MS). */
  closeIdleSince(cutoff: number): void {
    while (this.idle.length && this.idle[0].since < cutoff) this.closeOldestIdle('idle');
  }

  /** Units of work wait here and this pool may open one more connection. */
  wantsRoom(): boolean {
    return !this.ended && this.waiters.length > 0 && this.totalCount < this.settings.max;
  }

  /** The ceiling gave this pool room: open a connection for the unit of work waiting longest. */
  openForWaiter(): void {
    const waiter = this.waiters.shift();
    if (!waiter) return this.ceiling.give(this);
    clearTimeout(waiter.timer);
    this.open(waiter.since).then(waiter.resolve, waiter.reject);
  }

  private acquire(): Promise<PgConnection> {
    const since = Date.now();
    this.lastUsed = since;
    if (this.ended)
      return Promise.reject(connectionsBusy('The client database is being closed; try again shortly'));
    const idle = this.idle.pop();
    if (idle) {
      this.busy++;
      this.metrics.waitSeconds.observe(0);
      return Promise.resolve(idle.connection);
    }
    if (this.totalCount < this.settings.max && this.ceiling.tryTake(this)) return this.open(since);
    if (this.waiters.length >= this.settings.queueMax) {
      this.metrics.waitsRejected.inc();
      return Promise.reject(
        connectionsBusy('Too many requests wait for this client database; try again shortly'),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        since,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          this.metrics.waitsRejected.inc();
          reject(connectionsBusy('No client database connection became free in time; try again shortly'));
        }, this.settings.waitMs),
      };
      this.waiters.push(waiter);
      if (this.totalCount < this.settings.max) this.ceiling.waitForRoom(this);
    });
  }

  /** Opens a connection the ceiling has already counted. */
  private async open(since: number): Promise<PgConnection> {
    this.opening++;
    this.ceiling.pools.add(this);
    const connection = new PgConnection(this.settings.connection);
    connection.on('error', () => this.dropBroken(connection));
    try {
      await connection.connect();
    } catch (err) {
      this.opening--;
      this.leaveWhenEmpty();
      this.ceiling.give(this);
      connection.end().catch(() => undefined);
      if (REFUSED_DATABASE.has((err as { code?: string }).code ?? '')) this.settings.onRefused?.();
      throw Object.assign(connectionsBusy('The client database cannot be reached; try again shortly'), {
        cause: err,
      });
    }
    this.opening--;
    this.busy++;
    this.metrics.opens.inc();
    this.metrics.waitSeconds.observe((Date.now() - since) / 1000);
    if (this.ended) {
      this.release(connection);
      throw connectionsBusy('The client database is being closed; try again shortly');
    }
    return connection;
  }

  private release(connection: PgConnection, err?: unknown): void {
    this.busy--;
    if (err || this.ended || this.broken.has(connection)) {
      this.closeAndWait(connection);
      return;
    }
    const othersWaiting = this.ceiling.othersWaiting(this);
    const waiter = this.waiters[0];
    if (waiter && !(othersWaiting && this.totalCount > 0)) {
      // Handed straight to the next unit of work of this client, unless this client already holds
      // another connection and others wait for room: one busy client cannot keep them all.
      this.waiters.shift();
      clearTimeout(waiter.timer);
      this.busy++;
      this.metrics.waitSeconds.observe((Date.now() - waiter.since) / 1000);
      waiter.resolve(connection);
      return;
    }
    if (othersWaiting) {
      this.ceiling.evicted('ceiling');
      this.closeAndWait(connection);
      return;
    }
    this.idle.push({ connection, since: Date.now() });
    this.ceiling.keepHeadroom();
  }

  /** Closes a released connection; this client's waiters, if any, queue for the room it frees. */
  private closeAndWait(connection: PgConnection): void {
    if (this.wantsRoom()) this.ceiling.waitForRoom(this);
    void this.close(connection);
  }

  /** A connection the server dropped: closed now if idle, when released otherwise. */
  private dropBroken(connection: PgConnection): void {
    this.broken.add(connection);
    const at = this.idle.findIndex((idle) => idle.connection === connection);
    if (at >= 0) void this.close(this.idle.splice(at, 1)[0].connection);
  }

  private async close(connection: PgConnection): Promise<void> {
    this.leaveWhenEmpty();
    this.ceiling.closingOne();
    await connection.end().catch(() => undefined);
    this.ceiling.closed(this);
  }

  private leaveWhenEmpty(): void {
    if (this.totalCount === 0) this.ceiling.pools.delete(this);
  }
}
