import { Injectable } from '@nestjs/common';
import { RedisService } from '../redis/redis.service';

type Book = 'pending' | 'retained';

/** Removes a member only if its score did not move past `cutoff` (a delivery created meanwhile). */
const REMOVE_IF_NOT_NEWER = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) <= tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0`;

/**
 * Which clients the delivery sweeper and the purge must visit, so an idle client costs them
 * nothing: two Redis sorted sets of client identifiers scored by their newest delivery's creation.
 * `pending`: clients that may hold PENDING/RETRYING deliveries (left once a sweep finds none);
 * `retained`: clients that may hold delivery records (left once the newest is past the retention).
 * The dispatcher marks a client after committing its deliveries; the slow full pass re-marks
 * clients whose marks were lost (Redis restarted empty, deliveries older than these sets).
 */
@Injectable()
export class DeliveryActivity {
  constructor(private readonly redis: RedisService) {}

  async created(identifier: string, at = Date.now()): Promise<void> {
    await this.redis.client
      .multi()
      .zadd(this.key('pending'), 'GT', at, identifier)
      .zadd(this.key('retained'), 'GT', at, identifier)
      .exec();
  }

  /** Re-marks a client the full pass found holding deliveries. */
  async found(identifier: string, book: Book, at: number): Promise<void> {
    await this.redis.client.zadd(this.key(book), 'GT', at, identifier);
  }

  async clients(book: Book): Promise<Map<string, number>> {
    const flat = await this.redis.client.zrange(this.key(book), 0, -1, 'WITHSCORES');
    const found = new Map<string, number>();
    for (let i = 0; i < flat.length; i += 2) found.set(flat[i], Number(flat[i + 1]));
    return found;
  }

  /** A visit that began at `since` found nothing left to do for `identifier` in `book`. */
  async done(identifier: string, book: Book, since: number): Promise<void> {
    await this.redis.client.eval(REMOVE_IF_NOT_NEWER, 1, this.key(book), identifier, since);
  }

  private key(book: Book): string {
    return this.redis.key('webhooks', 'delivery-clients', book);
  }
}
