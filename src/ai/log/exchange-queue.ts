import { Injectable, OnModuleDestroy } from '@nestjs/common';
import Bull from 'bull';
import { AppConfig } from '../../config/app-config';
import { openJobQueue, TenantJob, tenantJobData } from '../../tenancy/tenant-jobs';
import { Exchange } from './exchange';

export const AI_EXCHANGE_QUEUE = 'ai-exchanges';

export interface ExchangeJob extends TenantJob {
  exchange: Exchange;
}

/**
 * The durable hand-off of logged exchanges: the chat adds one job (in Redis) and answers; a worker
 * writes it to the log store, retrying until the store takes it. The job id `<client>:<exchange id>`
 * makes a repeated add harmless, and the store ignores an exchange it already holds.
 */
@Injectable()
export class ExchangeQueue implements OnModuleDestroy {
  readonly queue: Bull.Queue<ExchangeJob>;

  constructor(config: AppConfig) {
    this.queue = openJobQueue<ExchangeJob>(config, AI_EXCHANGE_QUEUE);
  }

  async onModuleDestroy() {
    await this.queue.close().catch(() => undefined);
  }

  async enqueue(exchange: Exchange): Promise<void> {
    const tenant = tenantJobData();
    await this.queue.add(
      { tenant, exchange },
      {
        jobId: `${tenant.client.identifier}:${exchange.id}`,
        attempts: Number.MAX_SAFE_INTEGER,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }
}
