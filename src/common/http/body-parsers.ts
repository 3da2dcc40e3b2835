import type { NestExpressApplication } from '@nestjs/platform-express';
import { json } from 'express';
import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '../../config/app-config';
import { jsonDepthExceeds, JsonTooDeepError } from './json-depth';

/** Routes open to anyone that only ever take a few short fields. */
const AUTH_PATHS = ['/auth'];

/**
 * JSON bodies are parsed before authentication, so their size and nesting are bounded before the
 * object is built: /auth/* to AUTH_BODY_LIMIT_BYTES, every other route to BODY_LIMIT_BYTES, and any
 * body nesting deeper than BODY_MAX_DEPTH is refused from its raw bytes without being parsed.
 */
export function useBoundedJsonBodies(app: NestExpressApplication, config: AppConfig) {
  const verify = (_req: IncomingMessage, _res: unknown, raw: Buffer) => {
    if (jsonDepthExceeds(raw, config.BODY_MAX_DEPTH)) throw new JsonTooDeepError(config.BODY_MAX_DEPTH);
  };
  // The first parser that reads a body marks it parsed; the general one then leaves it alone.
  app.use(AUTH_PATHS, json({ limit: config.AUTH_BODY_LIMIT_BYTES, verify }));
  app.useBodyParser('json', { limit: config.BODY_LIMIT_BYTES, verify });
}
