import type { Request } from 'express';

/**
 * The `route` label of a request: its mount path and route template, else `unmatched`. Express
 * matches paths in any letter case and a mount path is the text the caller sent, so it is
 * lower-cased: otherwise `/AUTH/...` and `/auth/...` would make two series.
 */
export function routeLabel(req: Request): string {
  const template = (req.route as { path?: string } | undefined)?.path;
  return template ? `${req.baseUrl.toLowerCase()}${template}` : 'unmatched';
}

/** The label of a request refused by middleware mounted on a fixed path (its mount path). */
export const mountLabel = (req: Request): string => req.baseUrl.toLowerCase() || 'unmatched';
