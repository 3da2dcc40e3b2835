import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { redisConnectionOptions } from './redis-connection';

type Handler = (message: string) => void;

/** One command connection and one subscriber connection per process, with the deployment's key prefix. */
@Injectable()
export class RedisService implements OnModuleDestroy {
  private readonly logger = new Logger(RedisService.name);
  readonly client: Redis;
  private subscriber?: Promise<Redis>;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly gapListeners = new Set<() => void>();
  private subscriberUp = false;

  constructor(private readonly config: AppConfig) {
    this.client = this.connect();
  }

  key(...parts: (string | number)[]): string {
    return [this.config.REDIS_PREFIX, ...parts].join(':');
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.client.publish(this.key('events', channel), message);
  }

  async subscribe(channel: string, handler: Handler): Promise<void> {
    const full = this.key('events', channel);
    this.subscriber ??= this.openSubscriber();
    const subscriber = await this.subscriber;
    if (!this.handlers.has(full)) {
      this.handlers.set(full, new Set());
      await subscriber.subscribe(full);
    }
    this.handlers.get(full)!.add(handler);
  }

  /**
   * Whether the subscriber connection is up: while it is not, published messages are lost, so a
   * cache kept valid by them must not trust its entries for long.
   */
  get subscribed(): boolean {
    return this.subscriberUp;
  }

  /**
   * Called when the subscriber connection is lost and again once it is back with its subscriptions:
   * messages published in between are lost, so a cache kept valid by them drops what it holds.
   */
  onMessagesMayBeLost(listener: () => void): void {
    this.gapListeners.add(listener);
  }

  async onModuleDestroy() {
    const subscriber = await this.subscriber?.catch(() => undefined);
    await Promise.allSettled([this.client.quit(), subscriber?.quit()]);
  }

  /**
   * The subscriber connection skips ioredis' ready check (an INFO that a connection already in
   * subscriber mode may not send) and is used only once connected, so concurrent first subscriptions
   * from several modules cannot race the handshake.
   */
  private async openSubscriber(): Promise<Redis> {
    const subscriber = this.connect({ enableReadyCheck: false, lazyConnect: true });
    subscriber.on('message', (ch: string, message: string) => {
      for (const h of this.handlers.get(ch) ?? []) h(message);
    });
    const messagesMayBeLost = () => this.gapListeners.forEach((listener) => listener());
    subscriber.on('close', () => {
      if (this.subscriberUp) messagesMayBeLost();
      this.subscriberUp = false;
    });
    // 'ready' comes before ioredis sends the resubscriptions; a PING queued after them answers once
    // they are in place, and only then are messages known to arrive again.
    let connectedBefore = false;
    const resubscribed = () => {
      this.subscriberUp = true;
      if (connectedBefore) messagesMayBeLost();
      connectedBefore = true;
    };
    subscriber.on('ready', () => {
      setImmediate(() => void subscriber.ping().then(resubscribed, () => undefined));
    });
    await subscriber.connect();
    return subscriber;
  }

  private connect(options: { enableReadyCheck?: boolean; lazyConnect?: boolean } = {}): Redis {
    const redis = new Redis({
      ...redisConnectionOptions(this.config),
      maxRetriesPerRequest: 3,
      enableReadyCheck: true,
      ...options,
    });
    redis.on('error', (err) => this.logger.warn(`Redis: ${err.message}`));
    return redis;
  }
}
