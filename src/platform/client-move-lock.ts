import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { parseDatabaseUrl, withAdminConnection } from '../database/data-source-factory';

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
  constructor(private readonly config: AppConfig) {}

  async hold<T>(clientId: number, work: () => Promise<T>, onWait?: () => Promise<void>): Promise<T> {
    return withAdminConnection(parseDatabaseUrl(this.config.DATABASE_URL), async (pg) => {
      await pg.query('BEGIN');
      try {
        const deadline = Date.now() + LONGEST_WAIT_MS;
        let waiting = false;
        for (;;) {
          const { rows } = await pg.query<{ claimed: boolean }>(
            'SELECT pg_try_advisory_xact_lock($1, $2) AS claimed',
            [CLIENT_DATABASE_LOCK, clientId],
          );
          if (rows[0].claimed) break;
          if (Date.now() > deadline) throw new ClientBusy(clientId);
          if (!waiting) await onWait?.();
          waiting = true;
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
        return await work();
      } finally {
        await pg.query('ROLLBACK').catch(() => undefined);
      }
    });
  }
}
