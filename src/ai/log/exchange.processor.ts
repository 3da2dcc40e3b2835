import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Job } from 'bull';
import { runAsTenant } from '../../tenancy/tenant-jobs';
import { EXCHANGE_STORE, ExchangeStore } from './exchange';
import { ExchangeJob, ExchangeQueue } from './exchange-queue';

/** Jobs written at the same time by one worker process. */
const CONCURRENCY = 20;

/** Writes queued exchanges to the log store (workers only), in the tenant each was queued under. */
@Injectable()
export class ExchangeProcessor implements OnModuleInit {
  constructor(
    private readonly queue: ExchangeQueue,
    @Inject(EXCHANGE_STORE) private readonly store: ExchangeStore,
  ) {}

  onModuleInit() {
    void this.queue.queue.process(CONCURRENCY, (job) => this.handle(job));
  }

  handle(job: Job<ExchangeJob>): Promise<void> {
    return runAsTenant(job.data.tenant, () => this.store.write([job.data.exchange]));
  }
}
