import { Injectable, Logger } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import { DbTarget, withAdminConnection } from '../database/data-source-factory';
import { ServerAdminRepository, ServerIdentity } from '../database/server-admin.repository';
import { ClientRegistry } from '../tenancy/client-registry';
import { DatabaseServerRegistry } from '../tenancy/database-server-registry';
import { Client } from '../tenancy/entities/client.entity';
import { DatabaseServer } from '../tenancy/entities/database-server.entity';
import { ClientsRepository } from '../tenancy/clients.repository';
import { sameServer } from '../tenancy/server-identity';
import { ClientBusy, ClientMoveLock } from './client-move-lock';
import { ClientMoveQueue } from './client-move.queue';
import { PgToolError } from '../database/pg-tool-process';
import { MoveJob, MoveJobs, MoveStep } from './move-jobs';
import { CopyMove } from './copy-move';
import { MoveEnds, MoveRefused, OnlineMove } from './online-move';
import { WriteGuards } from './write-guards';
import { PlatformSettings } from './platform.settings';
import { publicFailure } from './public-failure';

/** Steps after the switch (and removing a write guard) are tried this often, further apart each time. */
const AFTER_SWITCH_ATTEMPTS = 4;
const AFTER_SWITCH_BACKOFF_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Moves a client's database (sandbox schemas included: they live in it) into a new database of the
 * move's own name (`_<name>_m<job>`) on another PostgreSQL server (checked live, before anything
 * changes and again on the connection that creates it). Online (OnlineMove) the data is copied by
 * logical replication while the client writes, and writes pause only for the switch. By copy:
 * the client is marked moving (503 CLIENT_MOVING), the source made unwritable (read-only for new
 * sessions, the sessions opened before ended once idle, a write guard on every table), then
 * pg_dump piped into pg_restore, then the switch.
 *
 * The job's progress is on the master and the worker holds the client's lease: a worker that
 * stops leaves a move that another one takes over (recover). A failure before the switch undoes
 * everything the move did and nothing else; after it, the clean-up steps are retried and the move
 * is done (with a warning when one still failed). The source is dropped after
 * CLIENT_MOVE_SOURCE_GRACE_MS.
 */
@Injectable()
export class ClientMover {
  private readonly logger = new Logger(ClientMover.name);

  constructor(
    private readonly clients: ClientsRepository,
    private readonly serverAdmin: ServerAdminRepository,
    private readonly registry: ClientRegistry,
    private readonly servers: DatabaseServerRegistry,
    private readonly secrets: SecretBox,
    private readonly jobs: MoveJobs,
    private readonly queue: ClientMoveQueue,
    private readonly settings: PlatformSettings,
    private readonly lock: ClientMoveLock,
    private readonly online: OnlineMove,
    private readonly copyMove: CopyMove,
    private readonly guards: WriteGuards,
  ) {}

  /**
   * Runs a move job holding the client's lock, so it waits for a migration of the client in
   * progress (the job says so) and none starts on the client until the move is over. A second run
   * of the same job waits too, then finds it finished and leaves; one that finds the job past its
   * first step takes over a move whose worker stopped.
   */
  async run(jobId: string, takeOver = false): Promise<void> {
    const queued = await this.jobs.get(jobId);
    if (!queued || queued.status === 'done' || queued.status === 'failed') return;
    // A take-over (MoveSweeper) leaves at once when another worker holds the client.
    const hold = this.lock.hold(
      queued.clientId,
      async () => {
        const job = await this.jobs.get(jobId);
        if (!job || job.status === 'done' || job.status === 'failed') return;
        job.waitingFor = null;
        if (job.step === 'queued') await this.move(job);
        else await this.recover(job);
      },
      async () => {
        this.logger.log(`Moving ${queued.identifier} waits for a migration of the client to finish`);
        await this.jobs.save({ ...queued, waitingFor: 'migration' });
      },
      'move',
      takeOver ? 0 : undefined,
    );
    await hold.catch((err) => {
      if (!(takeOver && err instanceof ClientBusy)) throw err;
    });
  }

  private async move(job: MoveJob) {
    const began = Date.now();
    const save = () => this.jobs.save(job);
    const progress = async (step: MoveStep) => {
      this.logger.log(`Moving ${job.identifier}: ${step} after ${Date.now() - began} ms`);
      Object.assign(job, { step, status: 'running' });
      await save();
    };
    const client = await this.clients.byId(job.clientId);
    const target = await this.servers.get(job.toServerId);
    let ends: MoveEnds | undefined;
    try {
      if (!client || client.status === 'DELETED') throw new MoveRefused('Client not found');
      if (!target) throw new MoveRefused('Target server not found');
      if (client.serverId === target.id && !client.movingToServerId) {
        await this.finish(job);
        return;
      }
      const [from, to] = await Promise.all([
        this.serverAdmin.identityAt(
          await this.servers.adminTarget(
            client.serverId,
            client.databaseHost,
            client.databasePort,
            'postgres',
          ),
        ),
        this.serverAdmin.identityAt(await this.targetAdmin(target, 'postgres')),
      ]);
      if (sameServer(from, to)) throw new MoveRefused(SAME_SERVER);
      job.source = {
        serverId: client.serverId,
        host: client.databaseHost,
        port: client.databasePort,
        database: client.databaseName,
        role: client.databaseUsername,
        ...from,
      };
      job.targetDatabase = movedDatabaseName(client.databaseName, job.jobId);
      ends = await this.ends(job, target, save);
      if (job.mode === 'online') await this.online.check(ends);
      await progress('copying');
      await this.prepareTarget(client, target, job.targetDatabase, from, async () => {
        job.targetCreated = true;
        await save();
      });
      if (job.mode === 'online') {
        await this.online.copy(job, client, ends);
        job.pauseMs = await this.online.switchOver(job, client, target, ends);
      } else {
        job.pauseMs = await this.copyMove.copy(job, client, target, ends);
      }
      await save();
      await this.afterSwitch(job, ends);
      this.logger.log(
        `Moved client ${client.identifier} to server ${target.id} (database ${job.targetDatabase}, ${job.mode}) in ${Date.now() - began} ms`,
      );
    } catch (err) {
      this.logger.error(
        `Moving client ${job.identifier} (job ${job.jobId}) failed: ${(err as Error).message}`,
      );
      if (await this.switched(job)) {
        await this.afterSwitch(job, ends ?? (await this.ends(job, target!, save)));
      } else {
        await this.undo(job);
        await this.fail(job, failure(err));
      }
    }
  }

  /**
   * Takes over a move whose worker stopped (its lease ran out): after the switch it finishes the
   * clean-up and reports done; before, it undoes everything the move did and reports failed.
   */
  private async recover(job: MoveJob) {
    this.logger.warn(`Taking over move ${job.jobId} of ${job.identifier}, stopped at ${job.step}`);
    if (await this.switched(job)) {
      const target = await this.servers.get(job.toServerId);
      if (target) {
        await this.afterSwitch(job, await this.ends(job, target, () => this.jobs.save(job)));
        return;
      }
    }
    await this.undo(job);
    await this.fail(
      job,
      `The worker moving the client stopped at step ${job.step}; the move was undone and the client writes on its former server; move it again`,
    );
  }

  /** Whether the client's row names the move's new database (the switch is one update of it). */
  private async switched(job: MoveJob): Promise<boolean> {
    const client = await this.clients.byId(job.clientId).catch(() => null);
    return !!client && client.serverId === job.toServerId && client.databaseName === job.targetDatabase;
  }

  /**
   * After the switch, every step is retried and none can undo the move: the former database closed
   * to the client's role, replication removed, the former database's drop queued. A step that
   * still fails leaves the move done with a warning.
   */
  private async afterSwitch(job: MoveJob, ends: MoveEnds) {
    const warnings: string[] = [];
    const step = async (what: string, work: () => Promise<void>) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await work();
        } catch (err) {
          if (attempt >= AFTER_SWITCH_ATTEMPTS) {
            this.logger.error(`Move ${job.jobId}: ${what} failed: ${(err as Error).message}`);
            warnings.push(`${what} failed`);
            return;
          }
          await sleep(AFTER_SWITCH_BACKOFF_MS * attempt);
        }
      }
    };
    if (job.mode === 'online') {
      await step('Closing the former database', () => this.online.closeSource(job, ends));
      await step('Removing replication', () => this.online.removeReplication(job.jobId, ends));
    }
    const grace = this.settings.CLIENT_MOVE_SOURCE_GRACE_MS;
    await step('Queueing the drop of the former database', async () => {
      await this.queue.enqueue(
        { kind: 'drop-source', jobId: job.jobId, clientId: job.clientId, source: job.source! },
        grace,
      );
      job.sourceDropAt = new Date(Date.now() + grace);
    });
    if (warnings.length) job.warning = `${warnings.join('; ')}; the client is on its new server`;
    await this.finish(job);
  }

  /**
   * Undoes a move that did not switch, whatever step it reached: the write guard and the
   * read-only mark go, writes resume on the source, replication is removed, and the database the
   * move created (and nothing else) is dropped. Every part is tried even when another fails.
   */
  private async undo(job: MoveJob) {
    const client = await this.clients.byId(job.clientId).catch(() => null);
    const target = await this.servers.get(job.toServerId).catch(() => undefined);
    const attempt = async (what: string, work: () => Promise<unknown>) => {
      try {
        await work();
      } catch (err) {
        this.logger.error(`Undoing move ${job.jobId}: ${what} failed: ${(err as Error).message}`);
      }
    };
    if (job.source && target && job.targetDatabase) {
      const ends = await this.ends(job, target, () => this.jobs.save(job));
      // Online, the guard's triggers go on before the pause (disarmed); by copy, with it.
      if (job.pausedAt || job.mode === 'online') {
        await attempt('removing the write guard', () => this.resumeSource(job, ends));
      }
      if (job.mode === 'online') {
        await attempt('removing replication', () => this.online.removeReplication(job.jobId, ends));
      }
    }
    if (client?.movingToServerId) {
      await attempt('resuming writes', async () => {
        await this.clients.update(null, client.id, { movingToServerId: null });
        await this.registry.changed();
      });
    }
    if (job.targetCreated && target && job.targetDatabase && job.source) {
      await attempt('dropping the unfinished copy', () =>
        this.dropCreated(target, job.targetDatabase!, job.source as ServerIdentity),
      );
    }
  }

  private async fail(job: MoveJob, error: string) {
    Object.assign(job, { status: 'failed', error, finishedAt: new Date() });
    if (job.pausedAt && job.pauseMs === null) job.pauseMs = Date.now() - job.pausedAt.getTime();
    await this.jobs.save(job);
  }

  private async finish(job: MoveJob) {
    Object.assign(job, { status: 'done', step: 'finished', finishedAt: new Date() });
    await this.jobs.save(job);
  }

  /** Administrative logins to the client's database on both servers. */
  private async ends(job: MoveJob, target: DatabaseServer, save: () => Promise<void>): Promise<MoveEnds> {
    const source = job.source!;
    return {
      source,
      sourceDb: await this.servers.adminTarget(source.serverId, source.host, source.port, source.database),
      targetDb: await this.targetAdmin(target, job.targetDatabase!),
      save,
    };
  }

  /** Writes go on again on the source: the guard goes, and in copy mode the read-only mark. */
  private async resumeSource(job: MoveJob, ends: MoveEnds) {
    await this.guards.remove(ends.sourceDb);
    if (job.mode === 'copy' && job.pausedAt) await this.copyMove.resume(job.source!);
  }

  /**
   * The client's login role (same password) and a new, empty database `database` on the target.
   * The server is identified again on the very connection that creates it: never the source's.
   * A database of that name already there (a run of this job that stopped) fails the move: it is
   * never dropped nor written over. `onCreated` is called once the database is the move's own.
   */
  private async prepareTarget(
    client: Client,
    target: DatabaseServer,
    name: string,
    source: ServerIdentity,
    onCreated: () => Promise<void>,
  ) {
    if (!client.databasePassword) throw new MoveRefused('Client has no database login');
    const password = this.secrets.decrypt(client.databasePassword);
    await withAdminConnection(await this.targetAdmin(target, 'postgres'), async (pg) => {
      if (sameServer(await this.serverAdmin.identity(pg), source)) throw new MoveRefused(SAME_SERVER);
      if (await this.serverAdmin.databaseExists(pg, name)) {
        throw new MoveRefused('The target server has a database of the name this move chose already');
      }
      await this.serverAdmin.ensureLoginRole(pg, client.databaseUsername, password);
      await this.serverAdmin.createDatabase(pg, name);
      await onCreated();
      await this.serverAdmin.restrictDatabaseTo(pg, name, client.databaseUsername);
    });
  }

  /**
   * Drops the database a failed move created on the target, and nothing else: the target server
   * as registered (identified again), never the source, a name no client is on.
   */
  private async dropCreated(target: DatabaseServer, database: string, source: ServerIdentity) {
    if (await this.clients.byDatabaseName(database)) return;
    await withAdminConnection(await this.targetAdmin(target, 'postgres'), async (pg) => {
      const here = await this.serverAdmin.identity(pg);
      const known = this.servers.storedIdentity(target);
      if (sameServer(here, source) || (known && !sameServer(here, known))) return;
      await this.serverAdmin.dropDatabase(pg, database);
    });
  }

  private targetAdmin(target: DatabaseServer, database: string): Promise<DbTarget> {
    return this.servers.adminTarget(target.id, target.host, target.port, database);
  }
}

const SAME_SERVER =
  'The target is the PostgreSQL server the client is on (registered under another name or address); nothing was changed';

/** Postgres keeps identifiers to 63 bytes. */
const NAME_BYTES = 63;

/**
 * The database a move creates: `_`, the client's base name (without an earlier move's or
 * restore's marks), then `_m` and the job's first 8 characters (a job creates one database; its
 * name says which job made it). The leading underscore keeps it apart from every name provisioning
 * derives from an identifier (those start with the prefix, a letter), so no client created later
 * can be handed a moved database.
 */
export function movedDatabaseName(current: string, jobId: string): string {
  const suffix = `_m${jobId.replace(/-/g, '').slice(0, 8)}`;
  return `_${baseDatabaseName(current).slice(0, NAME_BYTES - 1 - suffix.length)}${suffix}`;
}

/** A client database's name without the marks a move or a restore added to it. */
export function baseDatabaseName(name: string): string {
  return name.startsWith('_') ? name.slice(1).replace(/_(m[0-9a-f]{8}|r[0-9a-f]{6})$/, '') : name;
}

function failure(err: unknown): string {
  if (err instanceof MoveRefused) return err.message;
  if (err instanceof PgToolError) return 'Copying the database failed; see the server log';
  return publicFailure(err);
}
