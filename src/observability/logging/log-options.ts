import type { Params } from 'nestjs-pino';
import pino, { LevelWithSilent, LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { REDACTED, redactText } from '../../common/logging/redact';
import { contextFields, pathOf } from './log-fields';

/** The service's level names (Nest's) and pino's. */
const LEVELS: Record<string, LevelWithSilent> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** Object fields whose value is a secret, wherever they appear in a logged object. */
const SECRET_PATHS = [
  'password',
  'token',
  'secret',
  'authorization',
  'cookie',
  'accessToken',
  'refreshToken',
  '*.password',
  '*.token',
  '*.secret',
  '*.authorization',
  '*.cookie',
  '*.accessToken',
  '*.refreshToken',
  '*.headers',
];

function redactError(err: Error): Record<string, unknown> {
  const serialized = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  for (const key of ['message', 'stack']) {
    if (typeof serialized[key] === 'string') serialized[key] = redactText(serialized[key]);
  }
  return serialized;
}

/**
 * pino options of the API and the worker: requests are logged as one line each when answered, with
 * request id, client, sandbox, user id, route template, status and time, and never a header, a
 * query string or a body. Every message is passed through the secret masking of `redactText`.
 */
export function pinoOptions(level: string): LoggerOptions {
  return {
    level: LEVELS[level] ?? 'info',
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: SECRET_PATHS, censor: REDACTED },
    mixin: (mergeObject) => contextFields(mergeObject),
    hooks: {
      logMethod(args, method) {
        const masked = args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg));
        return method.apply(this, masked as Parameters<typeof method>);
      },
    },
    // A request line logs the request and response objects (request-lines.ts); pino-http has wrapped
    // these around its standard serializers, which give method, url and statusCode.
    serializers: {
      err: redactError,
      req: (req: { method?: string; url?: string }) => ({ method: req.method, path: pathOf(req.url) }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

/** Lines go through process.stdout (not straight to its file descriptor), in order, like console output. */
const STDOUT = { write: (line: string) => process.stdout.write(line) };

/** nestjs-pino module parameters: JSON lines, or pino-pretty text written synchronously. */
export function loggerParams(level: string, format: 'json' | 'pretty'): Params {
  const pinoHttp: Params['pinoHttp'] = [
    pinoOptions(level),
    format === 'pretty'
      ? pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,req,res' })
      : STDOUT,
  ];
  // nestjs-pino's own request middleware (a pino-http child logger and a context scope per request)
  // is not mounted: request lines come from requestLines() (request-lines.ts), and lines logged
  // during a request take its id and tenant from the tenant context (contextFields).
  return { pinoHttp, forRoutes: [] };
}
