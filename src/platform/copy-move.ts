import { Injectable, Logger } from '@nestjs/common';
import type { Client as PgClient } from 'pg';
import { withAdminConnection } from '../database/data-source-factory';
import { ReplicationRepository } from '../database/replication.repository';
import { ServerAdminRepository } from '../database/server-admin.repository';
import { ClientRegistry } from '../tenancy/client-registry';
import { ClientsRepository } from '../tenancy/clients.repository';
import { DatabaseServerRegistry } from '../tenancy/database-server-registry';
import { Client } from '../tenancy/entities/client.entity';
import { DatabaseServer } from '../tenancy/entities/database-server.entity';
import { copyDatabase } from './database-copy';
import { MovedSource, MoveJob } from './move-jobs';
import { MoveEnds, MoveRefused, switchedTo } from './online-move';
import { WriteGuards } from './write-guards';

/** Sessions still busy on the source this long after the pause began are ended. */
const SESSION_DRAIN_MS = 10_000;
const POLL_MS = 50;
/** The write guard waits this long for the writers in flight before the copy. */
const GUARD_LOCK_MS = 10_000;

const BEING_RESTORED = 'The client is being restored from a backup; move it once the restore is over';

/**
 * The copy way (writes refused for the whole copy): the client marked moving, the source made
 * unwritable (read-only for new sessions, the sessions opened before ended once idle, the write
 * guard on every table), pg_dump piped into pg_restore, the guard taken off the copy, the switch.
 */
@Injectable()
export class CopyMove {
  private readonly logger = new Logger(CopyMove.name);

  constructor(
    private readonly clients: ClientsRepository,
    private readonly registry: ClientRegistry,
    private readonly servers: DatabaseServerRegistry,
    private readonly serverAdmin: ServerAdminRepository,
    private readonly replication: ReplicationRepository,
    private readonly guards: WriteGuards,
  ) {}

  /** Pauses, copies and switches; answers how long writes were refused. */
  async copy(job: MoveJob, client: Client, target: DatabaseServer, ends: MoveEnds): Promise<number> {
    const pausedAt = new Date();
    job.pausedAt = pausedAt;
    await ends.save();
    // A restore in place and a move exclude each other through the client's row.
    if (!(await this.clients.markMoving(client.id, target.id))) throw new MoveRefused(BEING_RESTORED);
    await this.registry.changed();
    await this.makeReadOnly(ends.source);
    await withAdminConnection(ends.sourceDb, (pg) => this.replication.installWriteGuard(pg, GUARD_LOCK_MS));
    await copyDatabase(ends.sourceDb, ends.targetDb);
    await this.guards.remove(ends.targetDb);
    job.step = 'switching';
    await ends.save();
    await this.clients.update(null, client.id, switchedTo(target, ends.targetDb.database));
    const pauseMs = Date.now() - pausedAt.getTime();
    await this.registry.changed();
    this.logger.log(`Switched ${client.identifier} after copying it with writes refused for ${pauseMs} ms`);
    return pauseMs;
  }

  /** The source writable again for new sessions; the sessions opened during the pause (read-only) end. */
  async resume(source: MovedSource): Promise<void> {
    const admin = await this.servers.adminTarget(source.serverId, source.host, source.port, 'postgres');
    await withAdminConnection(admin, async (pg) => {
      await this.serverAdmin.resetReadOnly(pg, source.database);
      await this.serverAdmin.endAllSessions(pg, source.database);
    });
  }

  /**
   * New sessions of the source database start read-only; those opened before are ended once idle
   * (at once if idle, after SESSION_DRAIN_MS if still busy), so what they commit is in the dump.
   */
  private async makeReadOnly(source: MovedSource) {
    const admin = await this.servers.adminTarget(source.serverId, source.host, source.port, 'postgres');
    await withAdminConnection(admin, async (pg) => {
      const since = await this.serverAdmin.makeReadOnly(pg, source.database);
      const deadline = Date.now() + SESSION_DRAIN_MS;
      for (;;) {
        const busy = await this.endIdleSessions(pg, source.database, since, Date.now() > deadline);
        if (!busy) return;
        await sleep(POLL_MS);
      }
    });
  }

  /** Ends the sessions opened before `since` that are idle (all of them when `all`); answers how many remain. */
  private async endIdleSessions(pg: PgClient, database: string, since: Date, all: boolean): Promise<number> {
    const sessions = await this.serverAdmin.sessionsOpenedBefore(pg, database, since);
    const ending = sessions.filter((s) => all || s.idle).map((s) => s.pid);
    if (ending.length) await this.serverAdmin.endSessions(pg, ending);
    return sessions.length;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
