import { Global, Module } from '@nestjs/common';
import { RateLimiter } from './rate-limiter';

/** Redis-backed limits shared by every replica. */
@Global()
@Module({ providers: [RateLimiter], exports: [RateLimiter] })
export class RateLimitsModule {}
