import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { TenantQueue } from '../tenancy/tenant-queue';

export const CLIENT_MOVE_QUEUE = 'client-moves';

/** The copy a move left on the former server, dropped after the grace period. */
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

export type ClientMoveJob =
  | { kind: 'move'; jobId: string }
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
