import { applyDecorators, HttpCode, RequestMapping, RequestMethod, Type } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiResponse,
} from '@nestjs/swagger';
import { Authenticated } from './access-rules';
import type { Permission } from './permissions';
import type { RoleType } from './roles';

const METHODS = {
  GET: RequestMethod.GET,
  POST: RequestMethod.POST,
  PUT: RequestMethod.PUT,
  DELETE: RequestMethod.DELETE,
} as const;

export interface RecordRouteOptions {
  summary: string;
  permissions: Permission[];
  minRole?: RoleType;
  /** The body answered (an envelope DTO); none for 204. */
  response?: Type<unknown>;
  /** Default: 201 for POST without an id in its path, 204 for DELETE, 200 otherwise. */
  status?: number;
  /** Documents 404 (a path id that names no record of the caller's). */
  notFound?: boolean;
  /** Documents 400 VALIDATION_ERROR (bodies, references). */
  badRequest?: boolean;
  /** Documents 409 with this description (e.g. INVALID_TRANSITION). */
  conflict?: string;
}

/**
 * One route of a records controller: the path and method, its status, the auth rule and the
 * Swagger operation and responses, stacked in one decorator.
 */
export function RecordRoute(method: keyof typeof METHODS, path: string, o: RecordRouteOptions) {
  const status = o.status ?? defaultStatus(method, path);
  const decorators = [
    RequestMapping({ method: METHODS[method], path: path || '/' }),
    HttpCode(status),
    Authenticated({ permissions: o.permissions, minRole: o.minRole }),
    ApiOperation({ summary: o.summary }),
    ApiResponse({ status, type: o.response, description: status === 204 ? 'No content' : undefined }),
  ];
  if (o.notFound) decorators.push(ApiNotFoundResponse({ description: 'NOT_FOUND' }));
  if (o.badRequest) decorators.push(ApiBadRequestResponse({ description: 'VALIDATION_ERROR' }));
  if (o.conflict) decorators.push(ApiConflictResponse({ description: o.conflict }));
  return applyDecorators(...decorators);
}

function defaultStatus(method: keyof typeof METHODS, path: string): number {
  if (method === 'DELETE') return 204;
  return method === 'POST' && !path.includes(':') ? 201 : 200;
}
