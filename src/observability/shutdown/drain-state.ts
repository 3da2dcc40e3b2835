import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/**
 * Whether this process is shutting down, and how many requests it is still answering. Once draining,
 * readiness answers 503 and every answer closes its connection, so keep-alive clients move to
 * another replica.
 */
@Injectable()
export class DrainState {
  private draining = false;
  private inFlight = 0;
  private idle: (() => void)[] = [];

  get isDraining(): boolean {
    return this.draining;
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  /** Express middleware counting requests in flight; mounted before every other. */
  readonly track = (_req: Request, res: Response, next: NextFunction) => {
    this.inFlight++;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      if (--this.inFlight === 0) this.idle.splice(0).forEach((resolve) => resolve());
    };
    res.once('finish', finish);
    res.once('close', finish);
    if (this.draining) res.setHeader('Connection', 'close');
    next();
  };

  startDraining(): void {
    this.draining = true;
  }

  /** Resolves once no request is in flight, or after `timeoutMs`; true when none was left. */
  whenIdle(timeoutMs: number): Promise<boolean> {
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
