import { Injectable } from '@nestjs/common';
import { RedisService } from '../../redis/redis.service';
import { JobTenant, tenantJobData } from '../../tenancy/tenant-jobs';
import { Exchange } from './exchange';

/** The consumer group of the log writers (every worker process is one consumer of it). */
export const EXCHANGE_WRITERS = 'writers';

/** One entry of the stream: the exchange and the tenant it is logged in. */
export interface QueuedExchange {
  tenant: JobTenant;
  exchange: Exchange;
}

/**
 * The durable hand-off of logged exchanges: a Redis stream. A chat appends its exchange with one
 * XADD and answers; the workers read the stream as one consumer group, write what they read in
 * batches, and only then acknowledge and delete the entries (exchange.processor.ts). One command per
 * chat instead of a Bull job (a Lua script on the way in, three more on the way out, and one
 * statement per exchange) halves the cost of logging a chat.
 */
@Injectable()
export class ExchangeQueue {
  readonly key: string;

  constructor(private readonly redis: RedisService) {
    this.key = redis.key('ai', 'exchanges');
  }

  async enqueue(exchange: Exchange): Promise<void> {
    const entry: QueuedExchange = { tenant: tenantJobData(), exchange };
    await this.redis.client.xadd(this.key, '*', 'e', JSON.stringify(entry));
  }

  /** Exchanges queued and not yet written. */
  backlog(): Promise<number> {
    return this.redis.client.xlen(this.key);
  }
}
