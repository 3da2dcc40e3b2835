import { isManyRelation } from '../records/engine/values';
import { AttributeDefinition, CompiledType } from './content-type.types';

type Schema = Record<string, unknown>;

function schemaOf(def: AttributeDefinition): Schema {
  const s: Schema = {};
  switch (def.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'uid':
      Object.assign(s, { type: 'string' });
      if (def.type === 'string') s.maxLength = def.maxLength ?? 255;
      else if (def.maxLength !== undefined) s.maxLength = def.maxLength;
      if (def.minLength !== undefined) s.minLength = def.minLength;
      if (def.regex) s.pattern = def.regex;
      break;
    case 'email':
      Object.assign(s, { type: 'string', format: 'email', maxLength: 255 });
      break;
    case 'enumeration':
      Object.assign(s, { type: 'string', enum: def.enum });
      break;
    case 'integer':
      Object.assign(s, { type: 'integer', format: 'int32' });
      break;
    case 'biginteger':
      Object.assign(s, { type: 'integer', format: 'int64' });
      break;
    case 'float':
      Object.assign(s, { type: 'number', format: 'float' });
      break;
    case 'decimal':
      Object.assign(s, { type: 'number', multipleOf: 0.01 });
      break;
    case 'boolean':
      s.type = 'boolean';
      break;
    case 'date':
      Object.assign(s, { type: 'string', format: 'date' });
      break;
    case 'time':
      Object.assign(s, { type: 'string', pattern: '^\\d{2}:\\d{2}(:\\d{2})?$' });
      break;
    case 'datetime':
      Object.assign(s, { type: 'string', format: 'date-time' });
      break;
    case 'json':
      break;
    case 'media':
      return def.multiple
        ? { type: 'array', items: { type: 'integer' }, description: 'Uploaded file ids' }
        : { type: 'integer', description: 'Uploaded file id' };
    case 'relation':
      return isManyRelation(def)
        ? { type: 'array', items: { type: 'integer' }, description: `Ids of ${def.target} records` }
        : { type: 'integer', description: `Id of a ${def.target} record` };
  }
  if (def.min !== undefined) s.minimum = def.min;
  if (def.max !== undefined) s.maximum = def.max;
  if (def.default !== undefined) s.default = def.default;
  return s;
}

const SYSTEM_SCHEMAS: Record<string, Schema> = {
  id: { type: 'integer' },
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
  createdById: { type: 'integer', nullable: true },
  updatedById: { type: 'integer', nullable: true },
  publishedAt: { type: 'string', format: 'date-time', nullable: true },
  publishedById: { type: 'integer', nullable: true },
  publicationStatus: { type: 'string', enum: ['DRAFT', 'PUBLISHED'] },
  companyId: { type: 'integer', description: 'The company the record belongs to' },
};

const pascal = (name: string) => name.replace(/(^|_)([a-z0-9])/g, (_m, _u, c: string) => c.toUpperCase());

const FILTER_DESCRIPTION =
  'field: value (equality), field: { $eq|$ne|$gt|$gte|$lt|$lte|$between|$in|$nin|$contains|$icontains|$startsWith|$endsWith|$null|$notNull: value }, ' +
  '$and / $or: [filters], $not: filter, relation: { targetField: ... }; at most 5 levels and 50 conditions';

/** An OpenAPI 3 document of one type's record endpoints, with schemas from its attributes. */
export function openApiFragment(type: CompiledType): Schema {
  const name = pascal(type.collectionName);
  const ref = (s: string) => ({ $ref: `#/components/schemas/${s}` });
  const recordProperties: Schema = {};
  const inputProperties: Schema = {};
  const required: string[] = [];
  const record: Schema = { type: 'object', properties: recordProperties, required: ['id'] };
  const input: Schema = { type: 'object', properties: inputProperties, additionalProperties: false };
  for (const { json } of type.system) recordProperties[json] = SYSTEM_SCHEMAS[json];
  for (const field of type.fields.values()) {
    const schema = schemaOf(field.def);
    inputProperties[field.name] = schema;
    if (field.def.required && field.def.default === undefined) required.push(field.name);
    if (!field.def.private) recordProperties[field.name] = schema;
  }
  if (required.length) input.required = required;
  const base = `/api/cms/${type.collectionName}`;
  const json = (schema: Schema) => ({ content: { 'application/json': { schema } } });
  const one = { description: 'The record', ...json({ type: 'object', properties: { data: ref(name) } }) };
  const page = {
    description: 'A page of records',
    ...json({
      type: 'object',
      properties: {
        data: { type: 'array', items: ref(name) },
        meta: { type: 'object', properties: { pagination: ref('Pagination') } },
      },
    }),
  };
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
  const listParams = [
    { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
    { name: 'pageSize', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
    { name: 'sort', in: 'query', schema: { type: 'string', default: 'id' } },
    { name: 'order', in: 'query', schema: { type: 'string', enum: ['ASC', 'DESC'], default: 'DESC' } },
    {
      name: 'fields',
      in: 'query',
      description: 'Fields to answer, comma-separated; id always',
      schema: { type: 'string' },
    },
    {
      name: 'after',
      in: 'query',
      description: 'meta.pagination.nextCursor of the previous page',
      schema: { type: 'string' },
    },
  ];
  const paths: Schema = {
    [base]: {
      get: { operationId: `list${name}`, parameters: listParams, responses: { 200: page } },
      post: { operationId: `create${name}`, requestBody: json(ref(`${name}Input`)), responses: { 201: one } },
    },
    [`${base}/{id}`]: {
      get: { operationId: `get${name}`, parameters: [id], responses: { 200: one } },
      put: {
        operationId: `update${name}`,
        parameters: [id],
        requestBody: json({ ...input, required: undefined }),
        responses: { 200: one },
      },
      delete: {
        operationId: `delete${name}`,
        parameters: [id],
        responses: { 204: { description: 'Deleted' } },
      },
    },
    [`${base}/search`]: {
      post: {
        operationId: `search${name}`,
        parameters: listParams,
        requestBody: json({ type: 'object', description: FILTER_DESCRIPTION }),
        responses: { 200: page },
      },
    },
    [`${base}/aggregate`]: {
      post: {
        operationId: `aggregate${name}`,
        requestBody: json({
          type: 'object',
          required: ['aggregate'],
          properties: {
            aggregate: {
              type: 'object',
              description: 'count (* or fields), countDistinct, sum, avg, min, max: arrays of field names',
              additionalProperties: { type: 'array', items: { type: 'string' } },
            },
            groupBy: {
              type: 'array',
              description: 'field names or { field, interval: day|week|month|year }',
            },
            filter: { type: 'object', description: FILTER_DESCRIPTION },
          },
        }),
        responses: {
          200: {
            description: 'One entry per group: group, then per function the value per field',
            ...json({ type: 'object', properties: { data: { type: 'array', items: { type: 'object' } } } }),
          },
        },
      },
    },
    [`${base}/count`]: {
      get: {
        operationId: `count${name}`,
        responses: {
          200: {
            description: 'Count',
            ...json({
              type: 'object',
              properties: { data: { type: 'object', properties: { count: { type: 'integer' } } } },
            }),
          },
        },
      },
    },
  };
  if (type.definition.options.draftAndPublish) {
    for (const action of ['publish', 'unpublish']) {
      paths[`${base}/{id}/${action}`] = {
        post: { operationId: `${action}${name}`, parameters: [id], responses: { 200: one } },
      };
    }
  }
  return {
    openapi: '3.0.3',
    info: { title: `${type.definition.info.displayName} records`, version: '1' },
    paths,
    components: {
      schemas: {
        [name]: record,
        [`${name}Input`]: input,
        Pagination: {
          type: 'object',
          properties: {
            page: { type: 'integer' },
            pageSize: { type: 'integer' },
            pageCount: { type: 'integer' },
            total: { type: 'integer' },
            nextCursor: { type: 'string', nullable: true },
          },
        },
      },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{ bearer: [] }],
  };
}
