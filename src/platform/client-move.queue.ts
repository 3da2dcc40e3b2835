import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { MovedSource } from '../tenancy/client-moves.repository';
import { TenantQueue } from '../tenancy/tenant-queue';

export const CLIENT_MOVE_QUEUE = 'client-moves';
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
