import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ClientMoveQueue } from './client-move.queue';
import { ClientMover } from './client-mover';
import { FormerDatabases } from './former-databases';

/** Client moves run one at a time per worker: each copies a whole database. */
const MOVE_CONCURRENCY = 1;

@Injectable()
export class ClientMoveProcessor implements OnModuleInit {
  private readonly logger = new Logger(ClientMoveProcessor.name);

  constructor(
    private readonly queue: ClientMoveQueue,
    private readonly mover: ClientMover,
    private readonly formerDatabases: FormerDatabases,
  ) {}

  onModuleInit() {
    this.queue.process(MOVE_CONCURRENCY, async (job) => {
      try {
        if (job.kind === 'move') await this.mover.run(job.jobId, job.takeOver);
        else await this.formerDatabases.drop(job.clientId, job.source);
      } catch (err) {
        this.logger.error(`Client move job ${job.jobId} (${job.kind}) failed: ${(err as Error).message}`);
        throw err;
      }
    });
  }
}
