import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { MetricsService } from '../../observability/metrics/metrics.service';
import { mountLabel } from '../../observability/metrics/route-label';

/** The routes that share the per-address budget of PublicAddressLimit. */
export const PUBLIC_LIMITED_PATHS = [
  '/auth/local/register',
  '/auth/email-confirmation',
  '/auth/forgot-password',
  '/auth/reset-password',
];

/**
 * Addresses this process has seen refused by the shared (Redis) per-address budget, until their
 * block ends. While one is blocked its next requests are refused before the body is read, the
 * client resolved or Redis asked: a flood from one address then costs almost nothing, so the
 * requests of everyone else keep their speed. Redis stays the authority; this only remembers its
 * last answer, so it can never refuse an address the shared budget would let through.
 */
@Injectable()
export class PublicAddressBlocks {
  private readonly until = new LRUCache<string, number>({ max: 10_000 });

  block(address: string, retryAfterSeconds: number): void {
    this.until.set(address, Date.now() + retryAfterSeconds * 1000);
  }

  /** Seconds the address stays blocked; 0 when it is not. */
  retryAfterSeconds(address: string): number {
    const until = this.until.get(address);
    if (until === undefined) return 0;
    const left = until - Date.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.until.delete(address);
    return 0;
  }
}

const REFUSAL = JSON.stringify({
  error: { status: 429, code: 'RATE_LIMITED', message: 'Too many attempts; try again later' },
});

/** Express middleware for PUBLIC_LIMITED_PATHS, mounted before the body parsers. */
export function refuseBlockedAddresses(blocks: PublicAddressBlocks, metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction) => {
    const retryAfter = blocks.retryAfterSeconds(req.ip ?? 'unknown');
    if (retryAfter === 0) return next();
    metrics.anonymousErrors.inc({ status: '429' });
    metrics.httpDuration.observe({ method: req.method, route: mountLabel(req), status: '429' }, 0);
    res.status(429).set({ 'Retry-After': String(retryAfter), 'Content-Type': 'application/json' });
    res.end(REFUSAL);
  };
}
