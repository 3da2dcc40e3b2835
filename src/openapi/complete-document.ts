import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { PUBLIC_OPERATION_EXTENSION } from '../access/access-rules';
import { TAGS } from './tags';
import { OPEN_SCHEMAS } from '../common/openapi/schemas';

const BEARER = 'bearer';
const ERROR = { $ref: '#/components/schemas/ErrorResponseDto' };
const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
};
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

/** Paths that answer in their own formats (health, metrics): no standard error answers are added. */
const OWN_FORMAT = /^\/(management|metrics)(\/|$)/;

/** The standard error answers, added where an operation does not describe its own. */
const STANDARD: Record<string, { description: string; headers?: ResponseObject['headers'] }> = {
  400: {
    description:
      'VALIDATION_ERROR (a body, query or path value fails its rule; `details` lists them) or BAD_REQUEST',
  },
  401: {
    description: 'UNAUTHORIZED, INVALID_TOKEN or TOKEN_EXPIRED: a missing, invalid or expired credential',
  },
  403: { description: 'FORBIDDEN: a permission, role, sandbox or client the caller lacks' },
  404: { description: "NOT_FOUND: no such record in the caller's scope" },
  413: { description: 'PAYLOAD_TOO_LARGE: the JSON body is over the size limit' },
  503: {
    description:
      'SERVICE_UNAVAILABLE (a database or Redis out of reach) or CLIENT_MIGRATING (the client database is being migrated)',
    headers: RETRY_AFTER,
  },
  default: {
    description:
      'Any other error in the standard envelope: 404 CLIENT_NOT_FOUND for an unknown or inactive client, 500 INTERNAL_ERROR',
  },
};

/**
 * Completes what the decorators cannot say per operation: the root security and tag list, `security: []`
 * on public operations, the standard error answers (with their envelope) each operation can give,
 * integer ids, and operationIds that are identifiers. See docs/api-rules.md, "The OpenAPI document".
 */
export function completeDocument(doc: OpenAPIObject): OpenAPIObject {
  doc.security = [{ [BEARER]: [] }];
  doc.info.license = { name: 'Proprietary' };
  const used = new Set<string>();
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      completeSecurity(op);
      for (const parameter of (op.parameters ?? []) as ParameterObject[])
        integerIds(parameter.name, parameter.schema);
      if (!OWN_FORMAT.test(path)) completeErrors(op);
      op.operationId = identifier(op.operationId ?? `${method}${path}`, ids);
      for (const tag of op.tags ?? []) used.add(tag);
    }
  }
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    integerIdProperties(schema as SchemaObject);
    if (OPEN_SCHEMAS.has(name)) (schema as SchemaObject).additionalProperties = true;
  }
  const undescribed = [...used].filter((tag) => !TAGS.some((t) => t.name === tag));
  if (undescribed.length)
    throw new Error(`OpenAPI tags without a description in src/openapi/tags.ts: ${undescribed.join(', ')}`);
  doc.tags = TAGS.filter((tag) => used.has(tag.name));
  return doc;
}

function completeSecurity(op: OperationObject) {
  const extended = op as OperationObject & Record<string, unknown>;
  if (extended[PUBLIC_OPERATION_EXTENSION]) {
    delete extended[PUBLIC_OPERATION_EXTENSION];
    op.security = [];
    return;
  }
  // Every route not marked public needs a credential (the global guard), decorated or not.
  op.security = [{ [BEARER]: [] }];
}

function completeErrors(op: OperationObject) {
  const parameters = (op.parameters ?? []) as ParameterObject[];
  const statuses: string[] = ['503', 'default'];
  const integerPath = (p: ParameterObject) =>
    p.in === 'path' && (p.schema as SchemaObject)?.type === 'integer';
  if (op.requestBody || parameters.some((p) => p.in === 'query' || integerPath(p))) statuses.push('400');
  if (op.requestBody && 'content' in op.requestBody && op.requestBody.content['application/json'])
    statuses.push('413');
  if (parameters.some((p) => p.in === 'path')) statuses.push('404');
  if (op.security?.length) statuses.push('401', '403');
  for (const status of statuses) {
    const standard = STANDARD[status];
    op.responses[status] ??= { description: standard.description };
    const response = op.responses[status] as ResponseObject;
    if (standard.headers && !response.headers) response.headers = standard.headers;
  }
  if (op.responses['429']) (op.responses['429'] as ResponseObject).headers ??= RETRY_AFTER;
  for (const [status, response] of Object.entries(op.responses)) {
    const isError = status === 'default' || Number(status) >= 400;
    if (isError && !(response as ResponseObject).content) {
      (response as ResponseObject).content = { 'application/json': { schema: ERROR } };
    }
  }
}

const ID_NAME = /^(id|.*Id)$/;
const IDS_NAME = /^.*Ids$/;

/** Ids are integers (docs/api-rules.md): a number-typed id is declared so. */
function integerIds(name: string, schema: unknown) {
  const s = schema as SchemaObject | undefined;
  if (!s) return;
  if (ID_NAME.test(name) && s.type === 'number') s.type = 'integer';
  if (IDS_NAME.test(name) && s.type === 'array' && (s.items as SchemaObject | undefined)?.type === 'number') {
    (s.items as SchemaObject).type = 'integer';
  }
}

function integerIdProperties(schema: SchemaObject) {
  for (const [name, property] of Object.entries(schema.properties ?? {})) integerIds(name, property);
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? [])])
    integerIdProperties(part as SchemaObject);
}

/**
 * `UnitsController_list` → `unitsList`; a handler mounted on several paths (`..._create[1]`) gets
 * `Alias`, `Alias2`... after its first path. Unique and stable while the handlers keep their names.
 */
function identifier(operationId: string, taken: Set<string>): string {
  const [, controller = '', method = operationId, index] =
    /^(?:(\w+?)(?:Controller)?_)?(\w+?)(?:\[(\d+)\])?$/.exec(operationId) ?? [];
  const base = lowerFirst(controller) + (controller ? upperFirst(method) : method);
  const n = Number(index ?? 0);
  const id = n === 0 ? base : `${base}Alias${n > 1 ? n : ''}`;
  if (taken.has(id)) throw new Error(`OpenAPI operationId ${id} is used twice (${operationId})`);
  taken.add(id);
  return id;
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
