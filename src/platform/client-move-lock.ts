import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { parseDatabaseUrl, withAdminConnection } from '../database/data-source-factory';
import { ServerAdminRepository } from '../database/server-admin.repository';

/** Advisory lock class (first key) of a client's database work; the second key is the client's id. */
const CLIENT_DATABASE_LOCK = 7243008;
const POLL_MS = 200;
/** A move or a migration waits this long at most for the other one on the same client. */
const LONGEST_WAIT_MS = 30 * 60_000;

export class ClientBusy extends Error {
  constructor(clientId: number) {
    super(
      `Client ${clientId} stayed busy with a move or a migration for ${LONGEST_WAIT_MS / 60_000} minutes`,
    );
  }
}

/**
 * One client's move and the migrations of that client never overlap, across every process: each
 * holds this lock, an advisory transaction lock on the master database keyed by the client's id,
 * for its whole run. A transaction lock (not a session one) so that it holds through a pooler in
 * transaction mode; the transaction runs no statement while held, so it keeps no snapshot. Waiting
 * polls a try-lock, so the waiter can say it waits (once, through `onWait`) and give up after
 * LONGEST_WAIT_MS. Should the master connection be lost, the lock goes with it.
 */
@Injectable()
export class ClientMoveLock {
  constructor(
    private readonly config: AppConfig,
    private readonly serverAdmin: ServerAdminRepository,
  ) {}

  async hold<T>(clientId: number, work: () => Promise<T>, onWait?: () => Promise<void>): Promise<T> {
    return withAdminConnection(parseDatabaseUrl(this.config.DATABASE_URL), async (pg) => {
      await this.serverAdmin.begin(pg);
      try {
        const deadline = Date.now() + LONGEST_WAIT_MS;
        let waiting = false;
        for (;;) {
          if (await this.serverAdmin.tryLockTransaction(pg, CLIENT_DATABASE_LOCK, clientId)) break;
          if (Date.now() > deadline) throw new ClientBusy(clientId);
          if (!waiting) await onWait?.();
          waiting = true;
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
        return await work();
      } finally {
        await this.serverAdmin.rollback(pg).catch(() => undefined);
      }
    });
  }
}
