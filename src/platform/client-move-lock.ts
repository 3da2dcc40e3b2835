import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { ClientLeasesRepository } from '../tenancy/client-leases.repository';
import { PlatformSettings } from './platform.settings';

const POLL_MS = 200;
/** A move or a migration waits this long at most for the other one on the same client. */
const LONGEST_WAIT_MS = 30 * 60_000;

export class ClientBusy extends Error {
  constructor(clientId: number) {
    super(`Client ${clientId} stayed busy with a move or a migration`);
  }
}

/**
 * One client's move and the migrations of that client never overlap, across every process: each
 * holds the client's lease on the master (client_leases) for its whole run, renewed every few
 * seconds. No transaction stays open meanwhile, so nothing on the master (a pooler, an
 * idle-in-transaction timeout) can end it unseen; a holder that stops leaves a lease that runs out
 * after CLIENT_LEASE_TTL_MS, and the client is free again. Waiting polls, so the waiter can say it waits
 * (once, through `onWait`) and give up after LONGEST_WAIT_MS.
 */
@Injectable()
export class ClientMoveLock {
  private readonly logger = new Logger(ClientMoveLock.name);

  constructor(
    private readonly leases: ClientLeasesRepository,
    private readonly settings: PlatformSettings,
  ) {}

  async hold<T>(
    clientId: number,
    work: () => Promise<T>,
    onWait?: () => Promise<void>,
    purpose: 'move' | 'migration' = 'migration',
    longestWaitMs = LONGEST_WAIT_MS,
  ): Promise<T> {
    const holder = `${hostname()}:${process.pid}:${randomUUID()}`.slice(0, 100);
    const ttl = this.settings.CLIENT_LEASE_TTL_MS;
    const deadline = Date.now() + longestWaitMs;
    let waiting = false;
    while (!(await this.leases.take(clientId, holder, purpose, ttl))) {
      if (Date.now() >= deadline) throw new ClientBusy(clientId);
      if (!waiting) await onWait?.();
      waiting = true;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const renewal = setInterval(() => {
      this.leases.renew(clientId, holder, ttl).then(
        (held) => held || this.logger.error(`Client ${clientId}: the ${purpose} lost its lease`),
        (err: Error) => this.logger.warn(`Client ${clientId}: renewing the lease failed: ${err.message}`),
      );
    }, ttl / 5);
    renewal.unref();
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      await this.leases.release(clientId, holder).catch((err: Error) => {
        this.logger.warn(`Client ${clientId}: releasing the lease failed (${err.message}); it runs out`);
      });
    }
  }
}
