import { Injectable, OnModuleInit } from '@nestjs/common';
import { ServerDrainQueue } from './server-drain.queue';
import { ServerDrainer } from './server-drainer';

/** A drain mostly waits for its moves, which the move queue runs: a few may wait at once. */
const DRAIN_CONCURRENCY = 2;

@Injectable()
export class ServerDrainProcessor implements OnModuleInit {
  constructor(
    private readonly queue: ServerDrainQueue,
    private readonly drainer: ServerDrainer,
  ) {}

  onModuleInit() {
    this.queue.process(DRAIN_CONCURRENCY, (job) => this.drainer.run(job.serverId));
  }
}
