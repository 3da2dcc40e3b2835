import { RedisService } from '../redis/redis.service';
import { Grant, LimitKey, limitKey, RefundableLimiter } from './limiter';

/** Refills `rate` tokens per second up to `burst`, takes up to `want`; answers the tokens granted. */
const TAKE = `
local key = KEYS[1]
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local want = tonumber(ARGV[4])
local state = redis.call('HMGET', key, 'tokens', 'ts')
local tokens = tonumber(state[1]) or burst
local ts = tonumber(state[2]) or now
if now > ts then tokens = math.min(burst, tokens + (now - ts) * rate / 1000) end
local take = math.min(want, math.floor(tokens))
tokens = tokens - take
redis.call('HSET', key, 'tokens', tostring(tokens), 'ts', tostring(math.max(now, ts)))
redis.call('PEXPIRE', key, math.max(60000, math.ceil(burst / rate * 2000)))
return take
`;

/** Token bucket in Redis (shared by every replica): a smooth rate per second with a burst. */
export class TokenBucket implements RefundableLimiter {
  constructor(
    private readonly redis: RedisService,
    private readonly name: string,
    readonly perSecond: number,
    readonly burst = perSecond,
  ) {}

  async take(key: LimitKey, want = 1): Promise<Grant> {
    const args = [this.perSecond, this.burst, Date.now(), want];
    const granted = Number(await this.redis.client.eval(TAKE, 1, this.key(key), ...args));
    return { granted, retryAfterMs: granted < want ? Math.ceil(1000 / this.perSecond) : 0 };
  }

  /** Gives back tokens that were taken but not used. */
  async refund(key: LimitKey, count: number): Promise<void> {
    if (count > 0) await this.redis.client.hincrbyfloat(this.key(key), 'tokens', count);
  }

  private key(key: LimitKey) {
    return this.redis.key('rl', 'bucket', this.name, limitKey(key));
  }
}
