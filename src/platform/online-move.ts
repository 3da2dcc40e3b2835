import { Injectable, Logger } from '@nestjs/common';
import type { Client as PgClient } from 'pg';
import { DbTarget, withAdminConnection } from '../database/data-source-factory';
import { ReplicationRepository, TableName } from '../database/replication.repository';
import { ClientDatabases } from '../tenancy/client-databases';
import { ClientRegistry } from '../tenancy/client-registry';
import { ClientChanges, ClientsRepository } from '../tenancy/clients.repository';
import { Client } from '../tenancy/entities/client.entity';
import { DatabaseServer } from '../tenancy/entities/database-server.entity';
import { copyDatabase } from './database-copy';
import { MoveJob, MovedSource } from './move-jobs';
import { PlatformSettings } from './platform.settings';

const POLL_MS = 200;
const FENCE_POLL_MS = 5;
/** Progress is written to the job this often while the data is copied. */
const SAVE_EVERY_MS = 1_000;
/** The copy gives up when neither a table finished nor the lag shrank for this long. */
const STALLED_MS = 5 * 60_000;
/**
 * Each table's guard trigger waits this long at most for the table's writers in flight (writers that
 * come meanwhile queue behind it), and is tried this many times.
 */
const GUARD_LOCK_MS = 100;
const GUARD_ATTEMPTS = 600;

export class MoveRefused extends Error {}

/** The switch: the client's row names the target server and the move's database, and no move. */
export const switchedTo = (target: DatabaseServer, databaseName: string): ClientChanges => ({
  serverId: target.id,
  databaseHost: target.host,
  databasePort: target.port,
  databaseName,
  movingToServerId: null,
});
export class PauseTooLong extends MoveRefused {}

/** The publication, its slot and the subscription of one move share this name. */
export const replicationName = (jobId: string) => `_move_${jobId.replace(/-/g, '').slice(0, 16)}`;

export interface MoveEnds {
  source: MovedSource;
  /** Administrative logins to the client's database on each side. */
  sourceDb: DbTarget;
  targetDb: DbTarget;
  save: () => Promise<void>;
}

/**
 * The online way: the schema, then a publication on the source and a subscription on the target
 * that copies every table while the client writes, then the switch. Writes are refused only
 * during the switch: the client marked moving, a write guard on the source that no session of
 * the client's role can lift, the last change applied, sequences set, rows counted table by table,
 * and the client's row pointed at the target. A switch longer than CLIENT_MOVE_PAUSE_MAX_MS throws
 * PauseTooLong before the client's row changes (the caller undoes the move).
 */
@Injectable()
export class OnlineMove {
  private readonly logger = new Logger(OnlineMove.name);

  constructor(
    private readonly replication: ReplicationRepository,
    private readonly databases: ClientDatabases,
    private readonly clients: ClientsRepository,
    private readonly registry: ClientRegistry,
    private readonly settings: PlatformSettings,
  ) {}

  /** Refuses (before anything changes) a source whose tables logical replication cannot carry. */
  async check(ends: MoveEnds): Promise<void> {
    const missing = await withAdminConnection(ends.sourceDb, (pg) =>
      this.replication.tablesWithoutReplicaIdentity(pg),
    );
    if (missing.length) {
      throw new MoveRefused(
        `Tables without a primary key or replica identity cannot be moved online: ${missing.slice(0, 5).join(', ')}; move with mode "copy"`,
      );
    }
  }

  /** Copies the schema and starts replication; then waits until the target has caught up. */
  async copy(job: MoveJob, client: Client, ends: MoveEnds): Promise<void> {
    const name = replicationName(job.jobId);
    await this.databases.awaitSchemaChanges(client);
    await copyDatabase(ends.sourceDb, ends.targetDb, { schemaOnly: true });
    await withAdminConnection(ends.sourceDb, (pg) => this.replication.createPublication(pg, name));
    await withAdminConnection(ends.targetDb, (pg) =>
      this.replication.createSubscription(pg, name, ends.sourceDb),
    );
    // The write guard's triggers go on while the data is copied; the switch only turns them on.
    await withAdminConnection(ends.sourceDb, (pg) =>
      this.replication.prepareWriteGuard(pg, GUARD_LOCK_MS, GUARD_ATTEMPTS),
    );
    await this.catchUp(job, ends, name);
    // Counting the rows at the switch then reads indexes, not whole tables: the pause stays short.
    await Promise.all(
      [ends.sourceDb, ends.targetDb].map((db) =>
        withAdminConnection(db, (pg) => this.replication.vacuumAnalyze(pg)),
      ),
    );
    await this.catchUp(job, ends, name);
  }

  private async catchUp(job: MoveJob, ends: MoveEnds, name: string): Promise<void> {
    await withAdminConnection(ends.sourceDb, (source) =>
      withAdminConnection(ends.targetDb, async (target) => {
        let saved = 0;
        let best = { ready: -1, lag: Infinity, at: Date.now() };
        for (;;) {
          const tables = await this.replication.subscriptionTables(target, name);
          const lag = await this.replication.lagBytes(source, name);
          const copied = tables.total > 0 && tables.ready === tables.total;
          const step = copied ? 'catching-up' : 'copying';
          if (tables.ready > best.ready || (lag ?? Infinity) < best.lag) {
            best = { ready: tables.ready, lag: lag ?? Infinity, at: Date.now() };
          }
          if (step !== job.step || Date.now() - saved > SAVE_EVERY_MS) {
            Object.assign(job, { step, lagBytes: lag });
            await ends.save();
            saved = Date.now();
          }
          if (copied && lag !== null && lag <= this.settings.CLIENT_MOVE_CATCH_UP_BYTES) return;
          if (Date.now() - best.at > STALLED_MS) {
            throw new MoveRefused('The target stopped catching up with the source; see the server logs');
          }
          await sleep(POLL_MS);
        }
      }),
    );
  }

  /** The pause: guard, last changes, sequences, row counts, switch. Answers the pause's length. */
  async switchOver(job: MoveJob, client: Client, target: DatabaseServer, ends: MoveEnds): Promise<number> {
    const name = replicationName(job.jobId);
    // Every connection of the switch is open before it begins.
    return withAdminConnections(ends.sourceDb, COUNTING_CONNECTIONS, (sources) =>
      withAdminConnections(ends.targetDb, COUNTING_CONNECTIONS, async (targets) => {
        const [source, targetPg] = [sources[0], targets[0]];
        const pausedAt = Date.now();
        const deadline = pausedAt + this.settings.CLIENT_MOVE_PAUSE_MAX_MS;
        const left = () => {
          const ms = deadline - Date.now();
          if (ms <= 0) {
            throw new PauseTooLong(
              `The switch took longer than ${this.settings.CLIENT_MOVE_PAUSE_MAX_MS} ms; writes resumed on the source`,
            );
          }
          return ms;
        };
        Object.assign(job, { step: 'switching', pausedAt: new Date(pausedAt) });
        const [, marked] = await Promise.all([ends.save(), this.clients.markMoving(client.id, target.id)]);
        if (!marked) {
          throw new MoveRefused(
            'The client is being restored from a backup; move it once the restore is over',
          );
        }
        await this.registry.changed();
        const t = [Date.now()];
        const armedAt = await this.replication.armWriteGuard(source);
        for (let logged = false; ;) {
          const open = await this.replication.writersInFlight(source, ends.source.database, armedAt);
          if (!open.length) break;
          if (!logged && Date.now() - armedAt.getTime() > SLOW_WRITERS_MS) {
            this.logger.warn(
              `Switching ${client.identifier} waits for writers in flight: ${open.join(', ')}`,
            );
            logged = true;
          }
          left();
          await sleep(FENCE_POLL_MS);
        }
        t.push(Date.now());
        const lsn = await this.replication.currentLsn(source);
        while (!(await this.replication.confirmedPast(source, name, lsn))) {
          left();
          await sleep(FENCE_POLL_MS);
        }
        t.push(Date.now());
        await this.replication.setSequences(targetPg, await this.replication.sequences(source));
        t.push(Date.now());
        await this.compareRows(sources, targets, left);
        t.push(Date.now());
        left();
        await this.clients.update(null, client.id, switchedTo(target, ends.targetDb.database));
        const pauseMs = Date.now() - pausedAt;
        await this.registry.changed();
        this.logger.log(
          `Switched ${client.identifier} after a pause of ${pauseMs} ms: writes refused after ${t[0] - pausedAt} ms, ` +
            `guarded ${t[1] - t[0]} ms, last changes applied ${t[2] - t[1]} ms, sequences ${t[3] - t[2]} ms, ` +
            `rows counted ${t[4] - t[3]} ms`,
        );
        return pauseMs;
      }),
    );
  }

  /**
   * Counts every table on both sides at once, the tables spread over the connections given (the
   * biggest first, each to the connection with the least to count), and fails on any difference.
   */
  private async compareRows(sources: PgClient[], targets: PgClient[], left: () => number) {
    const tables = await this.replication.tables(sources[0]);
    const shares = spread(tables, sources.length);
    const count = async (connections: PgClient[]) => {
      const counted = new Map<TableName, number>();
      await Promise.all(
        shares.map(async (share, i) => {
          const counts = await this.replication.rowCounts(connections[i], share, left());
          share.forEach((table, j) => counted.set(table, counts[j]));
        }),
      );
      return counted;
    };
    const [here, there] = await Promise.all([count(sources), count(targets)]);
    const differ = tables.filter((t) => here.get(t) !== there.get(t));
    if (differ.length) {
      const named = differ.slice(0, 3).map((t) => `${t.schema}.${t.table}`);
      throw new MoveRefused(`Row counts differ between source and target (${named.join(', ')})`);
    }
  }

  /** After the switch: the former copy is closed to the client's role, replication removed. */
  async closeSource(job: MoveJob, ends: MoveEnds): Promise<void> {
    await withAdminConnection(ends.sourceDb, (pg) =>
      this.replication.closeToRole(pg, ends.source.database, ends.source.role),
    );
  }

  /** Removes the subscription (target) and the publication and slots (source); each if there. */
  async removeReplication(jobId: string, ends: Pick<MoveEnds, 'sourceDb' | 'targetDb'>): Promise<void> {
    const name = replicationName(jobId);
    await withAdminConnection(ends.targetDb, (pg) => this.replication.dropSubscription(pg, name)).catch(
      (err: { code?: string }) => {
        if (err.code !== MISSING_DATABASE) throw err;
      },
    );
    await withAdminConnection(ends.sourceDb, async (pg) => {
      await this.replication.dropPublication(pg, name);
      await this.replication.dropIdleSlots(pg, ends.sourceDb.database);
    });
  }
}

const MISSING_DATABASE = '3D000';
/** The switch says which transactions it waits for once it has waited this long. */
const SLOW_WRITERS_MS = 100;
/** Connections to each side during the switch: the rows of that many tables are counted at once. */
const COUNTING_CONNECTIONS = 3;

/** The tables in `n` shares of about equal size (the biggest first, each to the lightest share). */
function spread(tables: TableName[], n: number): TableName[][] {
  const shares = Array.from({ length: n }, () => ({ tables: [] as TableName[], bytes: 0 }));
  for (const table of [...tables].sort((a, b) => (b.bytes ?? 0) - (a.bytes ?? 0))) {
    const lightest = shares.reduce((min, share) => (share.bytes < min.bytes ? share : min));
    lightest.tables.push(table);
    lightest.bytes += table.bytes ?? 0;
  }
  return shares.map((share) => share.tables);
}

/** `n` administrative connections to one database, all closed afterwards. */
async function withAdminConnections<T>(
  db: DbTarget,
  n: number,
  work: (pgs: PgClient[]) => Promise<T>,
): Promise<T> {
  const open = (rest: number, pgs: PgClient[]): Promise<T> =>
    rest === 0 ? work(pgs) : withAdminConnection(db, (pg) => open(rest - 1, [...pgs, pg]));
  return open(n, []);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
