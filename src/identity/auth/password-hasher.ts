import { Injectable } from '@nestjs/common';
import bcrypt from 'bcrypt';
import pLimit from 'p-limit';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { AuthSettings } from './auth.settings';

export const hashingBusy = () =>
  new AppError(503, 'BUSY', 'Too many password operations at once; try again shortly', undefined, {
    'Retry-After': '1',
  });

/**
 * bcrypt hashes and checks. bcrypt runs on libuv's threadpool (4 threads by default), which serves
 * every request in first-come order: a flood of hashes from public endpoints used to queue a login's
 * check behind hundreds of them. Hashes of new passwords therefore take at most
 * PASSWORD_HASH_CONCURRENCY threads at once and at most PASSWORD_HASH_QUEUE_LIMIT wait (more answer
 * 503); logins' checks never wait in that queue.
 */
@Injectable()
export class PasswordHasher {
  /** Compared against when no user matches, so unknown identifiers take as long as wrong passwords. */
  private readonly decoy: Promise<string>;
  private readonly hashing: pLimit.Limit;

  constructor(
    private readonly config: AppConfig,
    private readonly settings: AuthSettings,
  ) {
    this.decoy = bcrypt.hash('decoy-password-for-timing', config.BCRYPT_ROUNDS);
    this.hashing = pLimit(settings.PASSWORD_HASH_CONCURRENCY);
  }

  /** Throws 503 BUSY (before any work) when too many hashes are already waiting. */
  hash(password: string): Promise<string> {
    if (this.hashing.pendingCount >= this.settings.PASSWORD_HASH_QUEUE_LIMIT) {
      return Promise.reject(hashingBusy());
    }
    return this.hashing(() => bcrypt.hash(password, this.config.BCRYPT_ROUNDS));
  }

  async verify(password: string, hash: string | null | undefined): Promise<boolean> {
    if (!hash) {
      await bcrypt.compare(password, await this.decoy);
      return false;
    }
    return bcrypt.compare(password, hash);
  }
}
