import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service';
import { routeLabel } from './route-label';

/** Observes every request's duration, labelled with the route template (not the raw path). */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction) {
    const end = this.metrics.httpDuration.startTimer();
    res.once('finish', () => {
      end({ method: req.method, route: routeLabel(req), status: String(res.statusCode) });
    });
    next();
  }
}
