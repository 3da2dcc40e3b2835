import type { Params } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { LevelWithSilent, LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { Options as HttpOptions } from 'pino-http';
import { REDACTED, redactText } from '../../common/logging/redact';
import { activeTraceId, completedRequestFields, contextFields, pathOf } from './log-fields';
import { requestIdOf } from './request-id';

/** The service's level names (Nest's) and pino's. */
const LEVELS: Record<string, LevelWithSilent> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** Probes and scrapes answer every few seconds; their lines are at debug level. */
const PROBE = /^\/(management\/health|metrics)(\/|$)/;

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

type Logged = IncomingMessage & { id?: string; traceId?: string };

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
    serializers: { err: redactError },
  };
}

export function httpOptions(level: string): HttpOptions {
  return {
    ...pinoOptions(level),
    genReqId: (req: IncomingMessage, res: ServerResponse) => requestIdOf(req, res),
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'responseTime' },
    // Called when the request starts (the trace is active then) and once it is answered.
    customProps: (req, res) => {
      if (res.headersSent) return completedRequestFields(req, res);
      (req as Logged).traceId = activeTraceId();
      return {};
    },
    customLogLevel: (req, res, err) => {
      if (PROBE.test(pathOf(req.url))) return res.statusCode >= 500 ? 'warn' : 'debug';
      if (res.statusCode === 503) return 'warn'; // shedding load (BUSY) or a dependency down: not a fault here
      return err || res.statusCode >= 500 ? 'error' : 'info';
    },
    // A 5xx answer is not an exception of its own: the exception filter has logged the cause.
    customErrorObject: (_req, _res, err, value: Record<string, unknown>) => {
      if (!err.message.startsWith('failed with status code')) return value;
      const rest = { ...value };
      delete rest.err;
      return rest;
    },
    customSuccessMessage: (req, res) => `${req.method} ${pathOf(req.url)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${pathOf(req.url)} ${res.statusCode}`,
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
  const options = httpOptions(level);
  const pinoHttp: Params['pinoHttp'] = [
    options,
    format === 'pretty'
      ? pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,req,res' })
      : STDOUT,
  ];
  return { pinoHttp, forRoutes: ['*'] };
}
