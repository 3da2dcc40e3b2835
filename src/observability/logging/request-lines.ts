import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { PinoLogger } from 'nestjs-pino';
import type { Level } from 'pino';
import { activeTraceId, completedRequestFields, pathOf } from './log-fields';
import { requestIdOf } from '../../common/http/request-id';

/** Probes and scrapes answer every few seconds; their lines are at debug level. */
const PROBE = /^\/(management\/health|metrics)(\/|$)/;

/** The level of a request's line: debug for probes, warn for 503 (shedding load), error for 5xx. */
export function requestLineLevel(req: IncomingMessage, res: ServerResponse): Level {
  if (PROBE.test(pathOf(req.url))) return res.statusCode >= 500 ? 'warn' : 'debug';
  if (res.statusCode === 503) return 'warn'; // shedding load (BUSY) or a dependency down: not a fault here
  return res.statusCode >= 500 ? 'error' : 'info';
}

type Traced = Request & { traceId?: string };

const RECEIVED_AT = Symbol('receivedAt');

/** When the request reached the app (performance.now()), for timings of the app's own share. */
export function receivedAt(req: IncomingMessage): number {
  return (req as IncomingMessage & { [RECEIVED_AT]?: number })[RECEIVED_AT] ?? performance.now();
}

/**
 * One line per answered request, written when the answer is finished: request id, method, path
 * without its query string, status, time, and the client, sandbox, user, route and trace id of
 * completedRequestFields; never a header or a body. Nothing per request is built unless the line's
 * level is enabled, besides the request id and the start time (a per-request child logger and
 * context scope cost about a quarter of a simple GET's throughput).
 */
export function requestLines() {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = Date.now();
    (req as Request & { [RECEIVED_AT]?: number })[RECEIVED_AT] = performance.now();
    const requestId = requestIdOf(req, res);
    const traceId = activeTraceId();
    if (traceId) (req as Traced).traceId = traceId;
    res.once('finish', () => {
      const logger = PinoLogger.root;
      const level = requestLineLevel(req, res);
      if (!logger?.isLevelEnabled(level)) return;
      const path = pathOf(req.originalUrl ?? req.url);
      logger[level](
        {
          requestId,
          req,
          res,
          responseTime: Date.now() - started,
          ...completedRequestFields(req, res),
        },
        `${req.method} ${path} ${res.statusCode}`,
      );
    });
    next();
  };
}
