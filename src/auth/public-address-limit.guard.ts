import { CanActivate, Injectable } from '@nestjs/common';
import { RateLimiter } from '../rate-limits/rate-limiter';
import { AuthSettings } from './auth.settings';
import { clientAddress } from './client-address';

/**
 * One budget per client address shared by register, e-mail confirmation, forgot- and reset-password:
 * AUTH_PUBLIC_LIMIT_PER_ADDRESS requests per AUTH_RATE_WINDOW_SECONDS, whatever the body (it runs
 * before validation), then 429 RATE_LIMITED with Retry-After.
 */
@Injectable()
export class PublicAddressLimit implements CanActivate {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly settings: AuthSettings,
  ) {}

  async canActivate(): Promise<boolean> {
    await this.limiter.consume('auth-public', [
      {
        key: [clientAddress()],
        limit: this.settings.AUTH_PUBLIC_LIMIT_PER_ADDRESS,
        windowSeconds: this.settings.AUTH_RATE_WINDOW_SECONDS,
      },
    ]);
    return true;
  }
}
