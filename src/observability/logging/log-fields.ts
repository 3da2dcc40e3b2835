import { trace } from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { storage as requestLogStorage } from 'nestjs-pino/storage';
import { tenantContext } from '../../tenancy/tenant-context';

type LoggedRequest = IncomingMessage & {
  id?: string;
  traceId?: string;
  baseUrl?: string;
  route?: { path?: unknown };
  principal?: { userId?: number };
};

/** The trace id of the active span, when tracing is on and a span is active. */
export function activeTraceId(): string | undefined {
  const context = trace.getActiveSpan()?.spanContext();
  return context && context.traceFlags !== undefined && !/^0+$/.test(context.traceId)
    ? context.traceId
    : undefined;
}

/** Keeps only the fields that have a value, so a line never shows `"userId":undefined` noise. */
function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** The path of a request without its query string (query parameters may carry credentials). */
export function pathOf(url: string | undefined): string {
  const path = (url ?? '').split('?')[0];
  return path.length > 500 ? `${path.slice(0, 500)}…` : path;
}

/** `/api/units/:id` for a request that reached a route; undefined for one answered before routing. */
function routeTemplate(req: LoggedRequest): string | undefined {
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : undefined;
}

/**
 * Fields of the line that closes a request, read once it has been answered: the tenant middleware has
 * set the client and sandbox headers by then, and authentication the principal.
 */
export function completedRequestFields(req: IncomingMessage, res: ServerResponse): Record<string, unknown> {
  const request = req as LoggedRequest;
  const header = (name: string) => {
    const value = res.getHeader(name);
    return typeof value === 'string' ? value : undefined;
  };
  return defined({
    client: header('X-Current-Client'),
    sandbox: header('X-Current-Tenant'),
    userId: request.principal?.userId,
    route: routeTemplate(request),
    traceId: request.traceId,
  });
}

/**
 * Fields every other line gets from where it is logged: the tenant of the request or job (its
 * request id too when no request logger carries it already) and the active trace.
 */
export function contextFields(mergeObject: object): Record<string, unknown> {
  if ('responseTime' in mergeObject) return {}; // the closing line has its own (completedRequestFields)
  const tenant = tenantContext.peek();
  const inRequest = requestLogStorage.getStore() !== undefined;
  return defined({
    requestId: inRequest ? undefined : tenant?.requestId,
    client: tenant?.client.identifier,
    sandbox: tenant?.schema,
    userId: tenant?.principal?.userId,
    traceId: activeTraceId(),
  });
}
