import { applyDecorators, HttpCode, RequestMapping, RequestMethod, Type } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiResponse,
  ApiResponseOptions,
  ApiResponseSchemaHost,
  ApiExtraModels,
  getSchemaPath,
} from '@nestjs/swagger';
import { ErrorResponseDto, OcrErrorResponseDto } from '../common/errors/error-envelope.dto';
import { Authenticated, AuthRule, Public } from './access-rules';

const METHODS = {
  GET: RequestMethod.GET,
  POST: RequestMethod.POST,
  PUT: RequestMethod.PUT,
  PATCH: RequestMethod.PATCH,
  DELETE: RequestMethod.DELETE,
} as const;

/** A further answer of a route: its description, or its description and body (a DTO or a schema). */
export type RouteAnswer =
  | string
  | { description: string; type: Type<unknown> }
  | { description: string; schema: ApiResponseSchemaHost['schema'] };

export interface RouteOptions extends Omit<AuthRule, 'public'> {
  summary: string;
  /** Longer text of the operation, beside its summary. */
  description?: string;
  /** No credential needed (`@Public`); otherwise `@Authenticated` with `permissions`, `minRole`, `platform`. */
  public?: boolean;
  /** The body answered (an envelope DTO, or `[Dto]` for a bare array); none for 204. */
  response?: Type<unknown> | [Type<unknown>];
  /** Describes the answer, e.g. its shape where it has no DTO. */
  responseDescription?: string;
  /** Headers of the answer (e.g. Server-Timing). */
  responseHeaders?: ApiResponseOptions['headers'];
  /** Default: 201 for POST without an id in its path, 204 for DELETE, 200 otherwise. */
  status?: number;
  /** Documents 404: NOT_FOUND (a path id that names no record of the caller's), or this description. */
  notFound?: boolean | string;
  /** Documents 400: VALIDATION_ERROR (bodies, references), or this description. */
  badRequest?: boolean | string;
  /** Documents 409 with this description (e.g. INVALID_TRANSITION). */
  conflict?: string;
  /** Further answers by status (e.g. 429 with Retry-After); they replace the default 401/403 texts. */
  answers?: Record<number, RouteAnswer>;
  /** Statuses the route's own checks answer as `{ error: "<message>" }` (OCR); validation and access stay standard. */
  plainErrors?: Record<number, string>;
}

/**
 * One route: the path and method, its status, the auth rule and the Swagger operation and
 * responses, stacked in one decorator.
 */
export function Route(method: keyof typeof METHODS, path: string, o: RouteOptions) {
  const status = o.status ?? defaultStatus(method, path);
  const decorators = [
    RequestMapping({ method: METHODS[method], path: path || '/' }),
    HttpCode(status),
    o.public ? Public() : Authenticated(authRule(o)),
    ApiOperation({ summary: o.summary, description: describeOperation(o) }),
    ApiResponse({
      status,
      type: o.response,
      description: o.responseDescription ?? (status === 204 ? 'No content' : undefined),
      headers: o.responseHeaders,
    }),
  ];
  if (o.notFound) decorators.push(ApiNotFoundResponse({ description: describe(o.notFound, 'NOT_FOUND') }));
  if (o.badRequest)
    decorators.push(ApiBadRequestResponse({ description: describe(o.badRequest, 'VALIDATION_ERROR') }));
  if (o.conflict) decorators.push(ApiConflictResponse({ description: o.conflict }));
  for (const [answerStatus, answer] of Object.entries(o.answers ?? {})) {
    const shape = typeof answer === 'string' ? { description: answer } : answer;
    decorators.push(ApiResponse({ status: Number(answerStatus), ...shape }));
  }
  for (const [answerStatus, description] of Object.entries(o.plainErrors ?? {})) {
    decorators.push(
      ApiExtraModels(ErrorResponseDto, OcrErrorResponseDto),
      ApiResponse({
        status: Number(answerStatus),
        description,
        schema: {
          oneOf: [{ $ref: getSchemaPath(OcrErrorResponseDto) }, { $ref: getSchemaPath(ErrorResponseDto) }],
        },
      }),
    );
  }
  return applyDecorators(...decorators);
}

/** The rule as a hand-written `@Authenticated` would give it: only the fields set. */
function authRule({ permissions, minRole, platform }: RouteOptions): Omit<AuthRule, 'public'> {
  return Object.fromEntries(
    Object.entries({ permissions, minRole, platform }).filter(([, value]) => value !== undefined),
  );
}

/** The operation's text: its own description, else its summary, and always who may call it. */
function describeOperation(o: RouteOptions): string {
  const text = o.description ?? `${o.summary.replace(/[.\s]*$/, '')}.`;
  return `${text}\n\nAccess: ${accessText(o)}.`;
}

function accessText({ public: isPublic, permissions, minRole, platform }: RouteOptions): string {
  if (isPublic) return 'public, no credential';
  const needs = [
    ...(permissions?.length ? [`permission ${permissions.map((p) => `\`${p}\``).join(' and ')}`] : []),
    ...(minRole ? [`role ${minRole} or above`] : []),
    ...(platform ? ['the master database (platform administration)'] : []),
  ];
  return needs.length ? `a bearer credential with ${needs.join(', ')}` : 'any bearer credential';
}

function describe(flag: true | string, fallback: string): string {
  return flag === true ? fallback : flag;
}

function defaultStatus(method: keyof typeof METHODS, path: string): number {
  if (method === 'DELETE') return 204;
  return method === 'POST' && !path.includes(':') ? 201 : 200;
}
