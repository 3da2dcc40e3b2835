import { Injectable, Logger } from '@nestjs/common';
import { Client as PgClient } from 'pg';
import { SecretBox } from '../common/crypto/secret-box';
import { AppConfig } from '../config/app-config';
import { DbTarget, withAdminConnection } from '../database/data-source-factory';
import { masterDirectTarget } from '../database/pooling';
import { quoteIdent, quoteLiteral } from '../database/ddl';
import { ClientRegistry } from '../tenancy/client-registry';
import { DatabaseServerRegistry } from '../tenancy/database-server-registry';
import { Client } from '../tenancy/entities/client.entity';
import { DatabaseServer } from '../tenancy/entities/database-server.entity';
import { PlatformDatabase } from '../tenancy/platform-database';
import { ClientMoveQueue, MovedSource } from './client-move.queue';
import { copyDatabase, DatabaseCopyError } from './database-copy';
import { MoveJobs, MoveJobView, MoveStep } from './move-jobs';
import { PlatformSettings } from './platform.settings';
import { publicFailure } from './public-failure';

/** Held (on the master database) by the run of one client's move, so two runs never overlap. */
const MOVE_LOCK = 7243007;
/** Sessions still busy on the source this long after the pause began are ended. */
const SESSION_DRAIN_MS = 10_000;
const POLL_MS = 50;

/**
 * Moves a client's database (sandbox schemas included: they live in it) to another server:
 *
 * 1. pausing: the client is marked moving (every replica refuses its writes, 503 CLIENT_MOVING),
 *    the source database turns read-only for new sessions, and the sessions opened before are
 *    ended as soon as they are idle, so no write can commit there any more;
 * 2. copying: pg_dump of the source into a fresh database of the same name on the target;
 * 3. switching: the registry entry names the target and every replica drops its connections.
 *
 * Everything acknowledged before the pause committed before the dump began; writes during it are
 * refused. A failure before the switch resumes writes on the source. The source is dropped after
 * CLIENT_MOVE_SOURCE_GRACE_MS.
 */
@Injectable()
export class ClientMover {
  private readonly logger = new Logger(ClientMover.name);

  constructor(
    private readonly platform: PlatformDatabase,
    private readonly registry: ClientRegistry,
    private readonly servers: DatabaseServerRegistry,
    private readonly secrets: SecretBox,
    private readonly jobs: MoveJobs,
    private readonly queue: ClientMoveQueue,
    private readonly config: AppConfig,
    private readonly settings: PlatformSettings,
  ) {}

  /** Runs a move job holding the client's move lock; a second run of it finds the lock and leaves. */
  async run(jobId: string): Promise<void> {
    const job = await this.jobs.get(jobId);
    if (!job || job.status === 'done' || job.status === 'failed') return;
    await withAdminConnection(masterDirectTarget(this.config), async (pg) => {
      const { rows } = await pg.query<{ claimed: boolean }>(
        'SELECT pg_try_advisory_lock($1, $2) AS claimed',
        [MOVE_LOCK, job.clientId],
      );
      if (!rows[0].claimed) return;
      await this.move(job);
    });
  }

  /** Drops the database (and login role) a move left on the former server, unless the client is back there. */
  async dropSource(clientId: number, source: MovedSource): Promise<void> {
    const client = await this.platform.clients().findOneBy({ id: clientId });
    const sameAddress = (host: string, port: number) =>
      host.toLowerCase() === source.host.toLowerCase() && port === source.port;
    if (client && sameAddress(client.databaseHost, client.databasePort)) return;
    const moving = client?.movingToServerId ? await this.servers.get(client.movingToServerId) : undefined;
    if (moving && sameAddress(moving.host, moving.port)) return;
    const admin = await this.servers.adminTarget(source.serverId, source.host, source.port, 'postgres');
    await withAdminConnection(admin, async (pg) => {
      await pg.query(`DROP DATABASE IF EXISTS ${quoteIdent(source.database)} WITH (FORCE)`);
      await pg.query(`DROP ROLE IF EXISTS ${quoteIdent(source.role)}`).catch((err: Error) => {
        this.logger.warn(`Keeping role ${source.role} on ${source.host}:${source.port}: ${err.message}`);
      });
    });
    this.logger.log(`Dropped the former database of client ${clientId} (${source.database})`);
  }

  private async move(job: MoveJobView) {
    const began = Date.now();
    const progress = async (step: MoveStep, extra: Partial<MoveJobView> = {}) => {
      this.logger.log(`Moving ${job.identifier}: ${step} after ${Date.now() - began} ms`);
      Object.assign(job, { step, status: 'running' }, extra);
      await this.jobs.save(job);
    };
    let client = await this.platform.clients().findOneBy({ id: job.clientId });
    const target = await this.servers.get(job.toServerId);
    let paused = false;
    let switched = false;
    try {
      if (!client || client.status === 'DELETED') throw new MoveRefused('Client not found');
      if (!target) throw new MoveRefused('Target server not found');
      if (this.isOn(client, target) && !client.movingToServerId) {
        await this.finish(job);
        return;
      }
      const source: MovedSource = {
        serverId: client.serverId,
        host: client.databaseHost,
        port: client.databasePort,
        database: client.databaseName,
        role: client.databaseUsername,
      };
      await progress('pausing');
      paused = true;
      await this.platform.clients().update(client.id, { movingToServerId: target.id });
      await this.registry.changed();
      await this.makeReadOnly(source);

      await progress('copying');
      client = (await this.platform.clients().findOneBy({ id: client.id }))!;
      await this.prepareTarget(client, target);
      await copyDatabase(
        await this.servers.adminTarget(source.serverId, source.host, source.port, source.database),
        await this.targetAdmin(target, client.databaseName),
      );

      await progress('switching');
      await this.platform.clients().update(client.id, {
        serverId: target.id,
        databaseHost: target.host,
        databasePort: target.port,
        movingToServerId: null,
      });
      switched = true;
      await this.registry.changed();
      const grace = this.settings.CLIENT_MOVE_SOURCE_GRACE_MS;
      await this.queue.enqueue({ kind: 'drop-source', jobId: job.jobId, clientId: client.id, source }, grace);
      await this.finish(job, new Date(Date.now() + grace).toISOString());
      this.logger.log(`Moved client ${client.identifier} to server ${target.id} in ${Date.now() - began} ms`);
    } catch (err) {
      this.logger.error(
        `Moving client ${job.identifier} (job ${job.jobId}) failed: ${(err as Error).message}`,
      );
      if (paused && !switched && client) await this.resume(client);
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

  private isOn(client: Client, server: DatabaseServer) {
    return (
      client.databaseHost.toLowerCase() === server.host.toLowerCase() && client.databasePort === server.port
    );
  }

  /**
   * New sessions of the source database start read-only; those opened before are ended once idle
   * (at once if idle, after SESSION_DRAIN_MS if still busy), so what they commit is in the dump.
   */
  private async makeReadOnly(source: MovedSource) {
    const admin = await this.servers.adminTarget(source.serverId, source.host, source.port, 'postgres');
    await withAdminConnection(admin, async (pg) => {
      await pg.query(`ALTER DATABASE ${quoteIdent(source.database)} SET default_transaction_read_only = on`);
      const { rows } = await pg.query<{ since: Date }>('SELECT clock_timestamp() AS since');
      const deadline = Date.now() + SESSION_DRAIN_MS;
      for (;;) {
        const busy = await this.endIdleSessions(pg, source.database, rows[0].since, Date.now() > deadline);
        if (!busy) return;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    });
  }

  /** Ends the sessions opened before `since` that are idle (all of them when `all`); answers how many remain. */
  private async endIdleSessions(pg: PgClient, database: string, since: Date, all: boolean): Promise<number> {
    const { rows } = await pg.query<{ pid: number; idle: boolean }>(
      `SELECT pid, state = 'idle' AS idle FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_start < $2
          AND backend_type = 'client backend'`,
      [database, since],
    );
    const ending = rows.filter((r) => all || r.idle).map((r) => r.pid);
    if (ending.length)
      await pg.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [ending]);
    return rows.length;
  }

  /** The client's login role (same password) and an empty database on the target; a failed try's copy is dropped. */
  private async prepareTarget(client: Client, target: DatabaseServer) {
    if (!client.databasePassword) throw new MoveRefused('Client has no database login');
    const password = this.secrets.decrypt(client.databasePassword);
    const role = quoteIdent(client.databaseUsername);
    const database = quoteIdent(client.databaseName);
    await withAdminConnection(await this.targetAdmin(target, 'postgres'), async (pg) => {
      const { rowCount } = await pg.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [
        client.databaseUsername,
      ]);
      if (!rowCount) await pg.query(`CREATE ROLE ${role} LOGIN`);
      await pg.query(`ALTER ROLE ${role} WITH LOGIN PASSWORD ${quoteLiteral(password)}`);
      await pg.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await pg.query(`CREATE DATABASE ${database}`);
      await pg.query(`REVOKE ALL ON DATABASE ${database} FROM PUBLIC`);
      await pg.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${database} TO ${role}`);
    });
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
        await pg.query(
          `ALTER DATABASE ${quoteIdent(client.databaseName)} RESET default_transaction_read_only`,
        );
        // Sessions opened during the pause stay read-only: they are ended, and replicas open new ones.
        await pg.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
          [client.databaseName],
        );
      });
      await this.platform.clients().update(client.id, { movingToServerId: null });
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

function failure(err: unknown): string {
  if (err instanceof MoveRefused) return err.message;
  if (err instanceof DatabaseCopyError) return 'Copying the database failed; see the server log';
  return publicFailure(err);
}
