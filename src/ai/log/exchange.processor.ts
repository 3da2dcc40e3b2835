import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueryFailedError } from 'typeorm';
import { RedisService } from '../../redis/redis.service';
import { isJobTenant, JobTenant, runAsTenant } from '../../tenancy/tenant-jobs';
import { AiSettings } from '../ai.settings';
import { Exchange, EXCHANGE_STORE, ExchangeStore } from './exchange';
import { EXCHANGE_WRITERS, ExchangeQueue, QueuedExchange } from './exchange-queue';

/** Entries read (and written) at once; one statement per tenant among them. */
const BATCH = 500;
/** How long one read waits for new entries, ms (also the longest a stop waits for the read). */
const BLOCK_MS = 1000;
/**
 * After a batch smaller than BATCH, how long to let entries gather before reading again, ms: a steady
 * trickle of chats is then written a few at a time instead of one statement (and the wake-ups of
 * three processes) per chat. Exchanges reach the log at most this much later.
 */
const LINGER_MS = 100;
/** A consumer with nothing pending and idle this long was a worker that is gone. */
const GONE_CONSUMER_MS = 3_600_000;

type StreamEntry = [id: string, fields: string[]];

/**
 * Writes the queued exchanges to the log store (workers only): reads the stream as one consumer of
 * the writers' group, writes each tenant's share of a batch in one statement, then acknowledges and
 * deletes the entries. What was not written (the store failed, or the worker died before its
 * acknowledgement) stays pending and is claimed again, by any worker, once idle AI_LOG_RETRY_MS; the
 * store ignores an exchange it already holds, so writing one twice is harmless. An entry that cannot
 * be read back (not JSON, or a tenant with a schema no tenant may have) is dropped and logged.
 */
@Injectable()
export class ExchangeProcessor implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ExchangeProcessor.name);
  private readonly consumer = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /** Blocking reads hold their connection, so the writer has its own. */
  private connection!: Redis;
  private running?: Promise<void>;
  private stopping = false;
  private reading = false;
  private grouped = false;
  private claimCursor = '0-0';
  private nextClaimAt = 0;

  constructor(
    private readonly queue: ExchangeQueue,
    private readonly redis: RedisService,
    private readonly settings: AiSettings,
    @Inject(EXCHANGE_STORE) private readonly store: ExchangeStore,
  ) {}

  onModuleInit() {
    this.connection = this.redis.client.duplicate();
    this.connection.on('error', () => undefined);
    this.running = this.loop();
  }

  /** Finishes the batch being written; a read waiting for entries is cut short (what it took stays pending). */
  async onModuleDestroy() {
    this.stopping = true;
    if (this.reading) this.connection.disconnect();
    await this.running;
    // Not twice: a second disconnect() of an ended connection leaves a 2 s timer behind.
    if (this.connection.status !== 'end') await this.connection.quit().catch(() => undefined);
  }

  private async loop() {
    while (!this.stopping) {
      try {
        await this.step();
      } catch (err) {
        if (this.stopping) break;
        const message = (err as Error).message;
        if (message.includes('NOGROUP')) this.grouped = false;
        this.logger.warn(`AI exchange log: ${message}`);
        await sleep(1000);
      }
    }
  }

  private async step() {
    if (!this.grouped) await this.createGroup();
    if (Date.now() >= this.nextClaimAt) {
      await this.claimStale();
      return;
    }
    this.reading = true;
    let answer: [string, StreamEntry[]][] | null;
    try {
      answer = (await this.connection.xreadgroup(
        'GROUP',
        EXCHANGE_WRITERS,
        this.consumer,
        'COUNT',
        BATCH,
        'BLOCK',
        BLOCK_MS,
        'STREAMS',
        this.queue.key,
        '>',
      )) as [string, StreamEntry[]][] | null;
    } finally {
      this.reading = false;
    }
    const entries = answer?.[0]?.[1] ?? [];
    if (entries.length) await this.write(entries);
    if (entries.length && entries.length < BATCH && !this.stopping) await sleep(LINGER_MS);
  }

  /** From the stream's first entry, so nothing queued before any worker started is skipped. */
  private async createGroup() {
    await this.connection
      .xgroup('CREATE', this.queue.key, EXCHANGE_WRITERS, '0', 'MKSTREAM')
      .catch((err: Error) => {
        if (!err.message.includes('BUSYGROUP')) throw err;
      });
    this.grouped = true;
  }

  /** Takes over entries pending longer than the retry delay: failed writes, and those of gone workers. */
  private async claimStale() {
    const retryMs = this.settings.AI_LOG_RETRY_MS;
    const [cursor, entries] = (await this.connection.xautoclaim(
      this.queue.key,
      EXCHANGE_WRITERS,
      this.consumer,
      retryMs,
      this.claimCursor,
      'COUNT',
      BATCH,
    )) as [string, StreamEntry[]];
    this.claimCursor = cursor;
    // A full page may have more behind it: claim again at once; else after the retry delay.
    if (cursor === '0-0') {
      this.nextClaimAt = Date.now() + retryMs;
      await this.forgetGoneConsumers();
    }
    const live = entries.filter((entry) => entry?.[1]);
    if (live.length) await this.write(live);
  }

  private async forgetGoneConsumers() {
    const consumers = (await this.connection.xinfo('CONSUMERS', this.queue.key, EXCHANGE_WRITERS)) as (
      string | number
    )[][];
    for (const fields of consumers) {
      const info = Object.fromEntries(
        Array.from({ length: fields.length / 2 }, (_, i) => [fields[2 * i], fields[2 * i + 1]]),
      );
      if (info.name !== this.consumer && info.pending === 0 && Number(info.idle) > GONE_CONSUMER_MS) {
        await this.connection.xgroup('DELCONSUMER', this.queue.key, EXCHANGE_WRITERS, String(info.name));
      }
    }
  }

  private async write(entries: StreamEntry[]) {
    const byTenant = new Map<string, { tenant: JobTenant; ids: string[]; exchanges: Exchange[] }>();
    const unreadable: string[] = [];
    for (const [id, fields] of entries) {
      const entry = readEntry(fields);
      if (!entry) {
        unreadable.push(id);
        continue;
      }
      const key = `${entry.tenant.client.identifier}/${entry.tenant.schema}`;
      const group = byTenant.get(key) ?? { tenant: entry.tenant, ids: [], exchanges: [] };
      group.ids.push(id);
      group.exchanges.push(entry.exchange);
      byTenant.set(key, group);
    }
    if (unreadable.length) {
      this.logger.error(
        `Dropped ${unreadable.length} unreadable AI exchange log entries: ${unreadable.join(', ')}`,
      );
      await this.done(unreadable);
    }
    await Promise.all(
      [...byTenant.values()].map(async ({ tenant, ids, exchanges }) => {
        const failure = await this.tryWrite(tenant, exchanges);
        if (!failure) return this.done(ids);
        let left = exchanges.length;
        // The database refused a value of the batch: one bad exchange must not hold back the others.
        if (refusedData(failure) && exchanges.length > 1) {
          for (let i = 0; i < exchanges.length; i++) {
            if (await this.tryWrite(tenant, [exchanges[i]])) continue;
            await this.done([ids[i]]);
            left--;
          }
        }
        this.logger.warn(
          `${left} AI exchanges of ${tenant.client.identifier} not written, tried again in ` +
            `${this.settings.AI_LOG_RETRY_MS} ms: ${failure.message}`,
        );
      }),
    );
  }

  /** null once written, else why not. */
  private async tryWrite(tenant: JobTenant, exchanges: Exchange[]): Promise<Error | null> {
    try {
      await runAsTenant(tenant, () => this.store.write(exchanges));
      return null;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  private async done(ids: string[]) {
    await this.connection
      .multi()
      .xack(this.queue.key, EXCHANGE_WRITERS, ...ids)
      .xdel(this.queue.key, ...ids)
      .exec();
  }
}

/** A data exception or an integrity violation (SQLSTATE classes 22 and 23), not a missing table or a lost connection. */
function refusedData(err: Error): boolean {
  const code = (err as QueryFailedError & { driverError?: { code?: string } }).driverError?.code ?? '';
  return err instanceof QueryFailedError && /^2[23]/.test(code);
}

function readEntry(fields: string[]): QueuedExchange | null {
  const at = fields.indexOf('e');
  if (at < 0) return null;
  try {
    const entry = JSON.parse(fields[at + 1] ?? '') as Partial<QueuedExchange>;
    if (!isJobTenant(entry.tenant) || typeof entry.exchange?.id !== 'string') return null;
    return entry as QueuedExchange;
  } catch {
    return null;
  }
}
