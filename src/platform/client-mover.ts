import { Injectable, Logger } from '@nestjs/common';
import { Client as PgClient } from 'pg';
import { SecretBox } from '../common/crypto/secret-box';
import { DbTarget, withAdminConnection } from '../database/data-source-factory';
import { ServerAdminRepository, ServerIdentity } from '../database/server-admin.repository';
import { ClientRegistry } from '../tenancy/client-registry';
import { DatabaseServerRegistry } from '../tenancy/database-server-registry';
import { Client } from '../tenancy/entities/client.entity';
import { DatabaseServer } from '../tenancy/entities/database-server.entity';
import { ClientsRepository } from '../tenancy/clients.repository';
import { sameServer } from '../tenancy/server-identity';
import { ClientMoveLock } from './client-move-lock';
import { ClientMoveQueue, MovedSource } from './client-move.queue';
import { PgToolError } from '../database/pg-tool-process';
import { copyDatabase } from './database-copy';
import { MoveJobs, MoveJobView, MoveStep } from './move-jobs';
import { PlatformSettings } from './platform.settings';
import { publicFailure } from './public-failure';

/** Sessions still busy on the source this long after the pause began are ended. */
const SESSION_DRAIN_MS = 10_000;
const POLL_MS = 50;

/**
 * Moves a client's database (sandbox schemas included: they live in it) to another server:
 *
 * 1. pausing: the client is marked moving (every replica refuses its writes, 503 CLIENT_MOVING),
 *    the source database turns read-only for new sessions, and the sessions opened before are
 *    ended as soon as they are idle, so no write can commit there any more;
 * 2. copying: pg_dump of the source into a new database of the move's own name on the target
 *    (`_<name>_m<job>`), which must be another PostgreSQL server than the source (checked live,
 *    before the pause and again on the connection that creates it);
 * 3. switching: the registry entry names the target and the new database, and every replica drops
 *    its connections.
 *
 * Everything acknowledged before the pause committed before the dump began; writes during it are
 * refused. A failure before the switch resumes writes on the source and drops the database the
 * move created, nothing else. The source is dropped after CLIENT_MOVE_SOURCE_GRACE_MS.
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
  ) {}

  /**
   * Runs a move job holding the client's lock, so it waits for a migration of the client in
   * progress (the job says so) and none starts on the client until the move is over. A second run
   * of the same job waits too, then finds it finished and leaves.
   */
  async run(jobId: string): Promise<void> {
    const queued = await this.jobs.get(jobId);
    if (!queued || queued.status === 'done' || queued.status === 'failed') return;
    await this.lock.hold(
      queued.clientId,
      async () => {
        const job = await this.jobs.get(jobId);
        if (!job || job.status === 'done' || job.status === 'failed') return;
        delete job.waitingFor;
        await this.move(job);
      },
      async () => {
        this.logger.log(`Moving ${queued.identifier} waits for a migration of the client to finish`);
        await this.jobs.save({ ...queued, waitingFor: 'migration' });
      },
    );
  }

  /**
   * Drops the database a move left on the former server, and its login role unless the client is
   * (or is being moved) back on that server. Servers are compared by what they answer, never by
   * address: nothing is dropped when the address now leads to another server, nor when the
   * database is the one the client is on.
   */
  async dropSource(clientId: number, source: MovedSource): Promise<void> {
    const client = await this.clients.byId(clientId);
    const admin = await this.servers.adminTarget(source.serverId, source.host, source.port, 'postgres');
    const [current, moving] = await Promise.all([
      client ? this.liveIdentity(client.serverId, client.databaseHost, client.databasePort) : null,
      client?.movingToServerId ? this.serverIdentity(client.movingToServerId) : null,
    ]);
    await withAdminConnection(admin, async (pg) => {
      const here = await this.serverAdmin.identity(pg);
      if (source.systemIdentifier && !sameServer(here, source as ServerIdentity)) {
        this.logger.warn(
          `Keeping the former database of client ${clientId}: its address leads to another server now`,
        );
        return;
      }
      if (client && !current) {
        this.logger.warn(
          `Keeping the former database of client ${clientId}: its server cannot be identified`,
        );
        return;
      }
      const clientHere = sameServer(current, here);
      if (clientHere && client!.databaseName === source.database) {
        this.logger.warn(`Keeping the former database of client ${clientId}: the client is on it`);
        return;
      }
      await this.serverAdmin.dropDatabase(pg, source.database);
      this.logger.log(`Dropped the former database of client ${clientId} (${source.database})`);
      // The login role is the client's on this server as long as it has a database here.
      if (clientHere || sameServer(moving, here)) return;
      await this.serverAdmin.dropRole(pg, source.role).catch((err: Error) => {
        this.logger.warn(`Keeping role ${source.role} on server ${source.serverId}: ${err.message}`);
      });
    });
  }

  private async move(job: MoveJobView) {
    const began = Date.now();
    const progress = async (step: MoveStep, extra: Partial<MoveJobView> = {}) => {
      this.logger.log(`Moving ${job.identifier}: ${step} after ${Date.now() - began} ms`);
      Object.assign(job, { step, status: 'running' }, extra);
      await this.jobs.save(job);
    };
    let client = await this.clients.byId(job.clientId);
    const target = await this.servers.get(job.toServerId);
    let paused = false;
    let switched = false;
    let created: { database: string; on: ServerIdentity } | undefined;
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
      const source: MovedSource = {
        serverId: client.serverId,
        host: client.databaseHost,
        port: client.databasePort,
        database: client.databaseName,
        role: client.databaseUsername,
        ...from,
      };
      const database = movedDatabaseName(client.databaseName, job.jobId);
      await progress('pausing');
      // A restore in place and a move exclude each other through the client's row.
      const marked = await this.clients.markMoving(client.id, target.id);
      if (!marked) throw new MoveRefused(BEING_RESTORED);
      paused = true;
      await this.registry.changed();
      await this.makeReadOnly(source);

      await progress('copying');
      client = (await this.clients.byId(client.id))!;
      await this.prepareTarget(client, target, database, from, () => (created = { database, on: to }));
      await copyDatabase(
        await this.servers.adminTarget(source.serverId, source.host, source.port, source.database),
        await this.targetAdmin(target, database),
      );

      await progress('switching');
      await this.clients.update(null, client.id, {
        serverId: target.id,
        databaseHost: target.host,
        databasePort: target.port,
        databaseName: database,
        movingToServerId: null,
      });
      switched = true;
      await this.registry.changed();
      const grace = this.settings.CLIENT_MOVE_SOURCE_GRACE_MS;
      await this.queue.enqueue({ kind: 'drop-source', jobId: job.jobId, clientId: client.id, source }, grace);
      await this.finish(job, new Date(Date.now() + grace).toISOString());
      this.logger.log(
        `Moved client ${client.identifier} to server ${target.id} (database ${database}) in ${Date.now() - began} ms`,
      );
    } catch (err) {
      this.logger.error(
        `Moving client ${job.identifier} (job ${job.jobId}) failed: ${(err as Error).message}`,
      );
      if (paused && !switched && client) await this.resume(client);
      if (created && !switched && target) await this.dropCreated(target, created);
      job.status = 'failed';
      job.error = failure(err);
      job.finishedAt = new Date().toISOString();
      await this.jobs.save(job);
      await this.jobs.release(job);
    }
  }

  private async finish(job: MoveJobView, sourceDropAt: string | null = null) {
    Object.assign(job, {
      status: 'done',
      step: 'finished',
      finishedAt: new Date().toISOString(),
      sourceDropAt,
    });
    await this.jobs.save(job);
    await this.jobs.release(job);
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
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
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
    onCreated: () => void,
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
      onCreated();
      await this.serverAdmin.restrictDatabaseTo(pg, name, client.databaseUsername);
    });
  }

  /**
   * Drops the database a failed move created on the target, and nothing else: the same server
   * (identified again), a name the client is not on.
   */
  private async dropCreated(target: DatabaseServer, created: { database: string; on: ServerIdentity }) {
    try {
      const client = await this.clients.byDatabaseName(created.database);
      if (client) return;
      await withAdminConnection(await this.targetAdmin(target, 'postgres'), async (pg) => {
        if (!sameServer(await this.serverAdmin.identity(pg), created.on)) return;
        await this.serverAdmin.dropDatabase(pg, created.database);
      });
    } catch (err) {
      this.logger.warn(`Dropping the unfinished copy ${created.database} failed: ${(err as Error).message}`);
    }
  }

  /** The live identity of a client's server, else the one stored, else null. */
  private async liveIdentity(serverId: number | null, host: string, port: number) {
    try {
      return await this.serverAdmin.identityAt(
        await this.servers.adminTarget(serverId, host, port, 'postgres'),
      );
    } catch {
      const server = serverId === null ? undefined : await this.servers.get(serverId);
      return server ? this.servers.storedIdentity(server) : null;
    }
  }

  private async serverIdentity(serverId: number) {
    const server = await this.servers.get(serverId);
    return server ? this.liveIdentity(server.id, server.host, server.port) : null;
  }

  /** Writes go on again on the source: the move stopped before the switch. */
  private async resume(client: Client) {
    try {
      const admin = await this.servers.adminTarget(
        client.serverId,
        client.databaseHost,
        client.databasePort,
        'postgres',
      );
      await withAdminConnection(admin, async (pg) => {
        await this.serverAdmin.resetReadOnly(pg, client.databaseName);
        // Sessions opened during the pause stay read-only: they are ended, and replicas open new ones.
        await this.serverAdmin.endAllSessions(pg, client.databaseName);
      });
      await this.clients.update(null, client.id, { movingToServerId: null });
      await this.registry.changed();
    } catch (err) {
      this.logger.error(`Resuming writes of ${client.identifier} failed: ${(err as Error).message}`);
    }
  }

  private targetAdmin(target: DatabaseServer, database: string): Promise<DbTarget> {
    return this.servers.adminTarget(target.id, target.host, target.port, database);
  }
}

class MoveRefused extends Error {}

const BEING_RESTORED = 'The client is being restored from a backup; move it once the restore is over';

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
