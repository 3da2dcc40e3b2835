import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisService } from '../redis/redis.service';

export const MOVE_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type MoveState = (typeof MOVE_STATES)[number];
/** queued → pausing (writes refused, sessions drained) → copying → switching → finished */
export const MOVE_STEPS = ['queued', 'pausing', 'copying', 'switching', 'finished'] as const;
export type MoveStep = (typeof MOVE_STEPS)[number];

export interface MoveJobView {
  jobId: string;
  clientId: number;
  identifier: string;
  fromServerId: number | null;
  toServerId: number;
  status: MoveState;
  step: MoveStep;
  error?: string;
  startedAt: string;
  finishedAt: string | null;
  /** Set while the move waits for a migration of the client to finish before it pauses writes. */
  waitingFor?: 'migration';
  /** When the copy left on the former server is dropped (set once the switch is done). */
  sourceDropAt: string | null;
}

/** A job's progress is kept this long after its last change. */
const KEEP_SECONDS = 7 * 24 * 3600;
/** A client's move claim outlives a dead worker's move by this much at most. */
const CLAIM_SECONDS = 3600;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The progress of client moves, one Redis key per job, so every replica answers it; and one claim
 * per client, so a client is moved by one job at a time.
 */
@Injectable()
export class MoveJobs {
  constructor(private readonly redis: RedisService) {}

  /** Records a queued job, or answers null when another move of the client is under way. */
  async create(
    job: Omit<MoveJobView, 'jobId' | 'status' | 'step' | 'startedAt' | 'finishedAt' | 'sourceDropAt'>,
  ) {
    const jobId = randomUUID();
    const claimed = await this.redis.client.set(
      this.claimKey(job.clientId),
      jobId,
      'EX',
      CLAIM_SECONDS,
      'NX',
    );
    if (!claimed) return null;
    const view: MoveJobView = {
      ...job,
      jobId,
      status: 'queued',
      step: 'queued',
      startedAt: new Date().toISOString(),
      finishedAt: null,
      sourceDropAt: null,
    };
    await this.save(view);
    return view;
  }

  async save(view: MoveJobView): Promise<void> {
    await this.redis.client.set(this.key(view.jobId), JSON.stringify(view), 'EX', KEEP_SECONDS);
  }

  /** Frees the client for another move (the job finished, failed or could not be queued). */
  async release(view: MoveJobView): Promise<void> {
    const key = this.claimKey(view.clientId);
    if ((await this.redis.client.get(key)) === view.jobId) await this.redis.client.del(key);
  }

  async get(jobId: string): Promise<MoveJobView | null> {
    if (!UUID.test(jobId)) return null;
    const raw = await this.redis.client.get(this.key(jobId));
    return raw ? (JSON.parse(raw) as MoveJobView) : null;
  }

  private key(jobId: string) {
    return this.redis.key('client-moves', jobId);
  }

  private claimKey(clientId: number) {
    return this.redis.key('client-moves', 'client', clientId);
  }
}
