import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MASTER_DATA_SOURCE } from '../database/master-data-source';
import { SqlExample } from '../database/sql-example';

export const MOVE_MODES = ['online', 'copy'] as const;
export type MoveMode = (typeof MOVE_MODES)[number];
export const MOVE_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type MoveState = (typeof MOVE_STATES)[number];
/** queued → copying → catching-up (online only) → switching (writes refused) → finished */
export const MOVE_STEPS = ['queued', 'copying', 'catching-up', 'switching', 'finished'] as const;
export type MoveStep = (typeof MOVE_STEPS)[number];

/** The database a move left on the former server, dropped after the grace period. */
export interface MovedSource {
  serverId: number | null;
  host: string;
  port: number;
  database: string;
  role: string;
  /** What the server answered when the move began (absent in drops queued by earlier versions). */
  systemIdentifier?: string;
  clusterPort?: number;
}

/** One move job as the master keeps it. */
export interface ClientMoveRow {
  jobId: string;
  clientId: number;
  identifier: string;
  fromServerId: number | null;
  toServerId: number;
  mode: MoveMode;
  status: MoveState;
  step: MoveStep;
  error: string | null;
  warning: string | null;
  waitingFor: 'migration' | null;
  lagBytes: number | null;
  /** The database the move creates on the target, and whether it has created it. */
  targetDatabase: string | null;
  targetCreated: boolean;
  source: MovedSource | null;
  /** When writes were refused (online: the switch began), and how long they were. */
  pausedAt: Date | null;
  pauseMs: number | null;
  sourceDropAt: Date | null;
  startedAt: Date;
  finishedAt: Date | null;
  updatedAt: Date;
}

export type NewClientMove = Pick<
  ClientMoveRow,
  'jobId' | 'clientId' | 'identifier' | 'fromServerId' | 'toServerId' | 'mode'
>;

const COLUMNS = `job_id AS "jobId", client_id AS "clientId", identifier, from_server_id AS "fromServerId",
  to_server_id AS "toServerId", mode, status, step, error, warning, waiting_for AS "waitingFor",
  lag_bytes::float8 AS "lagBytes", target_database AS "targetDatabase", target_created AS "targetCreated",
  source, paused_at AS "pausedAt", pause_ms AS "pauseMs", source_drop_at AS "sourceDropAt",
  started_at AS "startedAt", finished_at AS "finishedAt", updated_at AS "updatedAt"`;

const EXAMPLE_JOB = '00000000-0000-4000-8000-000000000001';
const UNIQUE_VIOLATION = '23505';

/** The master `client_moves` table: one row per move job, and at most one open move per client. */
@Injectable()
export class ClientMovesRepository {
  constructor(@Inject(MASTER_DATA_SOURCE) private readonly master: DataSource) {}

  /** Records a queued move; false when another move of the client is queued or running. */
  @SqlExample([
    { jobId: EXAMPLE_JOB, clientId: 1, identifier: 'acme', fromServerId: 1, toServerId: 2, mode: 'online' },
  ])
  async insert(move: NewClientMove): Promise<boolean> {
    try {
      await this.master.query(
        `INSERT INTO client_moves (job_id, client_id, identifier, from_server_id, to_server_id, mode, status, step)
         VALUES ($1, $2, $3, $4, $5, $6, 'queued', 'queued')`,
        [move.jobId, move.clientId, move.identifier, move.fromServerId, move.toServerId, move.mode],
      );
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === UNIQUE_VIOLATION) return false;
      throw err;
    }
  }

  @SqlExample([EXAMPLE_JOB])
  async byId(jobId: string): Promise<ClientMoveRow | null> {
    const rows: ClientMoveRow[] = await this.master.query(
      `SELECT ${COLUMNS} FROM client_moves WHERE job_id = $1`,
      [jobId],
    );
    return rows[0] ?? null;
  }

  /** Writes the job's progress (everything but its identity). */
  @SqlExample([
    {
      jobId: EXAMPLE_JOB,
      status: 'running',
      step: 'copying',
      error: null,
      warning: null,
      waitingFor: null,
      lagBytes: 0,
      targetDatabase: '_svc_acme_m00000000',
      targetCreated: false,
      source: null,
      pausedAt: null,
      pauseMs: null,
      sourceDropAt: null,
      finishedAt: null,
    },
  ])
  async saveProgress(
    job: Pick<
      ClientMoveRow,
      | 'jobId'
      | 'status'
      | 'step'
      | 'error'
      | 'warning'
      | 'waitingFor'
      | 'lagBytes'
      | 'targetDatabase'
      | 'targetCreated'
      | 'source'
      | 'pausedAt'
      | 'pauseMs'
      | 'sourceDropAt'
      | 'finishedAt'
    >,
  ): Promise<void> {
    await this.master.query(
      `UPDATE client_moves SET status = $2, step = $3, error = $4, warning = $5, waiting_for = $6,
         lag_bytes = $7, target_database = $8, target_created = $9, source = $10, paused_at = $11,
         pause_ms = $12, source_drop_at = $13, finished_at = $14, updated_at = now()
       WHERE job_id = $1`,
      [
        job.jobId,
        job.status,
        job.step,
        job.error,
        job.warning,
        job.waitingFor,
        job.lagBytes === null ? null : Math.round(job.lagBytes),
        job.targetDatabase,
        job.targetCreated,
        job.source === null ? null : JSON.stringify(job.source),
        job.pausedAt,
        job.pauseMs,
        job.sourceDropAt,
        job.finishedAt,
      ],
    );
  }

  /** Whether a move of the client is queued or running (its schema must not change meanwhile). */
  @SqlExample([1])
  async openFor(clientId: number): Promise<boolean> {
    const rows: unknown[] = await this.master.query(
      `SELECT 1 FROM client_moves WHERE client_id = $1 AND status IN ('queued', 'running')`,
      [clientId],
    );
    return rows.length > 0;
  }

  /**
   * Open moves nobody works on: running (or queued for longer than `queuedMs`) and not changed
   * for `quietMs`, while no live lease holds their client.
   */
  @SqlExample([30_000, 600_000])
  async abandoned(quietMs: number, queuedMs: number): Promise<string[]> {
    const rows: { jobId: string }[] = await this.master.query(
      `SELECT m.job_id AS "jobId" FROM client_moves m
        WHERE (m.status = 'running' AND m.updated_at < now() - make_interval(secs => $1::float8 / 1000)
            OR m.status = 'queued' AND m.updated_at < now() - make_interval(secs => $2::float8 / 1000))
          AND NOT EXISTS (SELECT 1 FROM client_leases l WHERE l.client_id = m.client_id AND l.expires_at > now())`,
      [quietMs, queuedMs],
    );
    return rows.map((r) => r.jobId);
  }
}
