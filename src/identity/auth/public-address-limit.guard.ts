import { CanActivate, Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { RateLimiter } from '../../rate-limits/rate-limiter';
import { AuthSettings } from './auth.settings';
import { clientAddress } from './client-address';
import { PublicAddressBlocks } from './public-address-blocks';

/**
 * One budget per client address shared by register, e-mail confirmation, forgot- and reset-password:
 * AUTH_PUBLIC_LIMIT_PER_ADDRESS requests per AUTH_RATE_WINDOW_SECONDS, whatever the body (it runs
 * before validation), then 429 RATE_LIMITED with Retry-After. A refusal is remembered by
 * PublicAddressBlocks, which refuses that address's next requests before their bodies are read.
 */
@Injectable()
export class PublicAddressLimit implements CanActivate {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly settings: AuthSettings,
    private readonly blocks: PublicAddressBlocks,
  ) {}

  async canActivate(): Promise<boolean> {
    const address = clientAddress();
    try {
      await this.limiter.consume('auth-public', [
        {
          key: [address],
          limit: this.settings.AUTH_PUBLIC_LIMIT_PER_ADDRESS,
          windowSeconds: this.settings.AUTH_RATE_WINDOW_SECONDS,
        },
      ]);
    } catch (err) {
      const retryAfter =
        err instanceof AppError && err.status === 429 ? err.headers?.['Retry-After'] : undefined;
      if (retryAfter) this.blocks.block(address, Number(retryAfter));
      throw err;
    }
    return true;
  }
}
