import { Injectable, OnModuleInit } from '@nestjs/common';
import { ClientMoveQueue } from './client-move.queue';
import { ClientMover } from './client-mover';

/** Client moves run one at a time per worker: each copies a whole database. */
const MOVE_CONCURRENCY = 1;

@Injectable()
export class ClientMoveProcessor implements OnModuleInit {
  constructor(
    private readonly queue: ClientMoveQueue,
    private readonly mover: ClientMover,
  ) {}

  onModuleInit() {
    this.queue.process(MOVE_CONCURRENCY, (job) =>
      job.kind === 'move' ? this.mover.run(job.jobId) : this.mover.dropSource(job.clientId, job.source),
    );
  }
}
