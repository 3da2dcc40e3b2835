import { Logger } from '@nestjs/common';

/**
 * Clients' lastAccessAt, gathered in memory and written for all the clients touched in an interval
 * in one statement sent by a timer, never on the request path. `flush` writes what is pending (at
 * shutdown).
 */
export class LastAccessWrites {
  private readonly logger = new Logger(LastAccessWrites.name);
  private pending = new Set<number>();
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly writeTouched: (clientIds: readonly number[]) => Promise<void>,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  add(clientId: number): void {
    this.pending.add(clientId);
  }

  /** Writes what is pending now, after any write under way. */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const ids = [...this.pending];
    this.pending = new Set();
    try {
      await this.writeTouched(ids);
    } catch (err) {
      this.logger.warn(`lastAccessAt: ${(err as Error).message}`);
    }
  }
}
