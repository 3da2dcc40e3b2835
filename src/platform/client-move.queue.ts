import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { MovedSource } from '../tenancy/client-moves.repository';
import { TenantQueue } from '../tenancy/tenant-queue';

/**
 * Its own name since move progress moved to the master: a worker of the release before, which kept
 * it in Redis, never takes a move of this one (nor this one an older move, which it would not find).
 */
export const CLIENT_MOVE_QUEUE = 'client-moves-v2';
export type { MovedSource };

export type ClientMoveJob =
  | { kind: 'move'; jobId: string; takeOver?: boolean }
  | { kind: 'drop-source'; jobId: string; clientId: number; source: MovedSource };

/**
 * Client moves and the later drop of the copies they leave behind. One attempt each (Bull runs a
 * stalled one again): a failed move resumes the client's writes, and moving again is the retry.
 */
@Injectable()
export class ClientMoveQueue extends TenantQueue<ClientMoveJob> {
  constructor(config: AppConfig) {
    super(config, { name: CLIENT_MOVE_QUEUE, attempts: 1 });
  }

  enqueue(job: ClientMoveJob, delayMs = 0): Promise<void> {
    return this.add([job], delayMs);
  }
}
