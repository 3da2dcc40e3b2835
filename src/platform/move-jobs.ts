import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ClientMoveRow, ClientMovesRepository, NewClientMove } from '../tenancy/client-moves.repository';

export { MOVE_MODES, MOVE_STATES, MOVE_STEPS } from '../tenancy/client-moves.repository';
export type { MoveMode, MoveState, MoveStep, MovedSource } from '../tenancy/client-moves.repository';

export type MoveJob = ClientMoveRow;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The progress of client moves, one master row per job (every replica answers it, and a worker
 * that takes over a stopped move reads where it was); at most one open move per client.
 */
@Injectable()
export class MoveJobs {
  constructor(private readonly moves: ClientMovesRepository) {}

  /** Records a queued job, or answers null when another move of the client is under way. */
  async create(job: Omit<NewClientMove, 'jobId'>): Promise<MoveJob | null> {
    const jobId = randomUUID();
    if (!(await this.moves.insert({ ...job, jobId }))) return null;
    return this.moves.byId(jobId);
  }

  save(job: MoveJob): Promise<void> {
    return this.moves.saveProgress(job);
  }

  get(jobId: string): Promise<MoveJob | null> {
    return UUID.test(jobId) ? this.moves.byId(jobId) : Promise.resolve(null);
  }

  /** What GET /api/platform/moves/{jobId} answers: never the servers' addresses. */
  static view(job: MoveJob) {
    return {
      jobId: job.jobId,
      clientId: job.clientId,
      identifier: job.identifier,
      fromServerId: job.fromServerId,
      toServerId: job.toServerId,
      mode: job.mode,
      status: job.status,
      step: job.step,
      lagBytes: job.lagBytes,
      pauseMs: job.pauseMs,
      ...(job.error ? { error: job.error } : {}),
      ...(job.warning ? { warning: job.warning } : {}),
      ...(job.waitingFor ? { waitingFor: job.waitingFor } : {}),
      startedAt: job.startedAt.toISOString(),
      finishedAt: job.finishedAt?.toISOString() ?? null,
      sourceDropAt: job.sourceDropAt?.toISOString() ?? null,
    };
  }
}
