import { Injectable } from '@nestjs/common';
import { RedisService } from '../redis/redis.service';
import { EventsSettings } from './events.settings';

/** Token bucket in Redis (shared by all replicas): refill `rate` per second, burst up to `rate`. */
const TAKE = `
local key = KEYS[1]
local rate = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local state = redis.call('HMGET', key, 'tokens', 'ts')
local tokens = tonumber(state[1]) or rate
local ts = tonumber(state[2]) or now
if now > ts then tokens = math.min(rate, tokens + (now - ts) * rate / 1000) end
local take = math.min(want, math.floor(tokens))
tokens = tokens - take
redis.call('HSET', key, 'tokens', tostring(tokens), 'ts', tostring(math.max(now, ts)))
redis.call('PEXPIRE', key, 60000)
return take
`;

/** Caps the events per second and client that the relay hands on (WEBHOOK_MAX_EVENTS_PER_SECOND). */
@Injectable()
export class EventRateLimiter {
  constructor(
    private readonly redis: RedisService,
    private readonly settings: EventsSettings,
  ) {}

  get rate(): number {
    return this.settings.WEBHOOK_MAX_EVENTS_PER_SECOND;
  }

  /** Takes up to `want` tokens for the client; answers how many were granted. */
  async take(client: string, want: number): Promise<number> {
    const granted = await this.redis.client.eval(TAKE, 1, this.key(client), this.rate, Date.now(), want);
    return Number(granted);
  }

  /** Gives back tokens that were taken but not used. */
  async refund(client: string, count: number): Promise<void> {
    if (count > 0) await this.redis.client.hincrbyfloat(this.key(client), 'tokens', count);
  }

  private key(client: string) {
    return this.redis.key('events', 'rate', client);
  }
}
