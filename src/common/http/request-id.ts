import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

const MAX_LENGTH = 100;

type WithId = IncomingMessage & { id?: unknown };

/**
 * The id of a request: the caller's `X-Request-ID` (first 100 characters) or a new UUID, chosen once
 * and kept on the request, so the request logger and the tenant context name it alike. It is echoed
 * in the `X-Request-ID` answer header.
 */
export function requestIdOf(req: IncomingMessage, res?: ServerResponse): string {
  const request = req as WithId;
  if (typeof request.id === 'string') return request.id;
  const header = req.headers['x-request-id'];
  const given = Array.isArray(header) ? header[0] : header;
  const id = given ? given.slice(0, MAX_LENGTH) : randomUUID();
  request.id = id;
  if (res && !res.headersSent) res.setHeader('X-Request-ID', id);
  return id;
}
