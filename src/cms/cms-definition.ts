import { AppError, FieldError } from '../common/errors/app-error';
import {
  attributeNameProblem,
  collectionNameProblem,
  columnName,
  joinTableName,
  systemFieldsFor,
  tableName,
} from './cms-names';
import { compilePattern, linearPatternProblem } from '../records/engine/patterns';
import {
  checkValue,
  isManyRelation,
  isNumberType,
  isStringType,
  stringWidth,
} from '../records/engine/values';
import {
  AttributeDefinition,
  CompiledField,
  CompiledType,
  ContentTypeDefinition,
  FIELD_TYPES,
  FieldType,
  RELATION_KINDS,
} from './content-type.types';

/** Most attributes one type may have. */
export const MAX_ATTRIBUTES = 100;
/** Widest `string` column (maxLength). */
export const MAX_STRING_LENGTH = 10000;

const TOP_LEVEL = ['kind', 'collectionName', 'info', 'options', 'attributes'];
const INFO_KEYS = ['singularName', 'pluralName', 'displayName', 'description'];
const COMMON_OPTIONS = ['type', 'required', 'unique', 'private', 'default'];

/** Options a type accepts beyond the common ones. */
function optionsOf(type: FieldType): string[] {
  if (type === 'string') return ['minLength', 'maxLength', 'regex'];
  if (type === 'text' || type === 'richtext') return ['minLength', 'maxLength'];
  if (isNumberType(type)) return ['min', 'max'];
  if (type === 'enumeration') return ['enum'];
  if (type === 'relation') return ['relation', 'target'];
  if (type === 'media') return ['multiple', 'allowedTypes'];
  return [];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks a definition as a caller sent it and answers it normalised, or throws 400
 * VALIDATION_ERROR listing every problem. `targets` are the collection names a relation may point
 * to (the other types of the schema; the type itself is always allowed).
 */
export function validateDefinition(
  body: unknown,
  targets: ReadonlySet<string>,
  companyScopedDefault = true,
): ContentTypeDefinition {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });
  if (!isObject(body)) throw AppError.validation([{ field: 'body', message: 'must be an object' }]);

  for (const key of Object.keys(body)) if (!TOP_LEVEL.includes(key)) fail(key, 'is not a definition field');
  if (body.kind !== undefined && body.kind !== 'collectionType') fail('kind', 'must be collectionType');
  const nameProblem = collectionNameProblem(body.collectionName);
  if (nameProblem) fail('collectionName', nameProblem);
  const collectionName = typeof body.collectionName === 'string' ? body.collectionName : '';

  const info = readInfo(body.info, collectionName, fail);
  const options = readOptions(body.options, companyScopedDefault, fail);

  const attributes: Record<string, AttributeDefinition> = {};
  if (!isObject(body.attributes) || !Object.keys(body.attributes).length) {
    fail('attributes', 'must be an object with at least one attribute');
  } else if (Object.keys(body.attributes).length > MAX_ATTRIBUTES) {
    fail('attributes', `must have at most ${MAX_ATTRIBUTES} attributes`);
  } else {
    const columns = new Map<string, string>();
    for (const [name, raw] of Object.entries(body.attributes)) {
      const field = `attributes.${name}`;
      const problem = attributeNameProblem(name);
      if (problem) {
        fail(field, problem);
        continue;
      }
      const column = columnName(name);
      if (columns.has(column)) fail(field, `is stored in the same column as ${columns.get(column)}`);
      columns.set(column, name);
      const def = readAttribute(raw, field, errors, targets, collectionName);
      if (def) attributes[name] = def;
    }
  }
  if (errors.length) throw AppError.validation(errors, 'Invalid content type definition');
  return { kind: 'collectionType', collectionName, info, options, attributes };
}

function readInfo(
  raw: unknown,
  collectionName: string,
  fail: (field: string, message: string) => void,
): ContentTypeDefinition['info'] {
  const info = { singularName: collectionName, pluralName: collectionName, displayName: collectionName };
  if (raw === undefined) return info;
  if (!isObject(raw)) {
    fail('info', 'must be an object');
    return info;
  }
  for (const [key, value] of Object.entries(raw)) {
    if (!INFO_KEYS.includes(key)) fail(`info.${key}`, 'is not an info field');
    else if (typeof value !== 'string' || !value.trim() || value.length > 200) {
      fail(`info.${key}`, 'must be a non-empty string of at most 200 characters');
    }
  }
  return { ...info, ...(raw as Partial<ContentTypeDefinition['info']>) };
}

/** `companyScoped` when not given: true for a new type, the stored value on a PUT. */
function readOptions(
  raw: unknown,
  companyScopedDefault: boolean,
  fail: (field: string, message: string) => void,
): ContentTypeDefinition['options'] {
  const defaults = { draftAndPublish: false, companyScoped: companyScopedDefault };
  if (raw === undefined) return defaults;
  if (!isObject(raw)) {
    fail('options', 'must be an object');
    return defaults;
  }
  for (const key of Object.keys(raw))
    if (key !== 'draftAndPublish' && key !== 'companyScoped') fail(`options.${key}`, 'is not an option');
  for (const key of ['draftAndPublish', 'companyScoped']) {
    if (raw[key] !== undefined && typeof raw[key] !== 'boolean') fail(`options.${key}`, 'must be a boolean');
  }
  return {
    draftAndPublish: raw.draftAndPublish === true,
    companyScoped: typeof raw.companyScoped === 'boolean' ? raw.companyScoped : companyScopedDefault,
  };
}

function readAttribute(
  raw: unknown,
  field: string,
  errors: FieldError[],
  targets: ReadonlySet<string>,
  collectionName: string,
): AttributeDefinition | null {
  const fail = (f: string, message: string) => errors.push({ field: f, message });
  if (!isObject(raw)) {
    fail(field, 'must be an object');
    return null;
  }
  if (typeof raw.type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(raw.type)) {
    fail(`${field}.type`, `must be one of ${FIELD_TYPES.join(', ')}`);
    return null;
  }
  const def = raw as unknown as AttributeDefinition;
  const allowed = [...COMMON_OPTIONS, ...optionsOf(def.type)];
  const before = errors.length;
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key)) fail(`${field}.${key}`, `is not an option of a ${def.type} field`);
  }
  for (const key of ['required', 'unique', 'private', 'multiple'] as const) {
    if (def[key] !== undefined && typeof def[key] !== 'boolean') fail(`${field}.${key}`, 'must be a boolean');
  }
  for (const key of ['minLength', 'maxLength'] as const) {
    const v = def[key];
    if (v !== undefined && (!Number.isInteger(v) || v < 0 || v > MAX_STRING_LENGTH)) {
      fail(`${field}.${key}`, `must be an integer between 0 and ${MAX_STRING_LENGTH}`);
    }
  }
  if (def.type === 'string' && def.maxLength === 0) fail(`${field}.maxLength`, 'must be at least 1');
  if (def.minLength !== undefined && def.maxLength !== undefined && def.minLength > def.maxLength) {
    fail(`${field}.minLength`, 'must not exceed maxLength');
  }
  for (const key of ['min', 'max'] as const) {
    const v = def[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v)))
      fail(`${field}.${key}`, 'must be a number');
  }
  if (typeof def.min === 'number' && typeof def.max === 'number' && def.min > def.max) {
    fail(`${field}.min`, 'must not exceed max');
  }
  if (def.regex !== undefined) checkRegex(def.regex, `${field}.regex`, fail);
  if (def.type === 'enumeration') {
    const values = def.enum;
    if (
      !Array.isArray(values) ||
      !values.length ||
      !values.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 100) ||
      new Set(values).size !== values.length
    ) {
      fail(`${field}.enum`, 'must be a non-empty array of distinct strings of at most 100 characters');
    }
  }
  if (def.type === 'relation') {
    if (!(RELATION_KINDS as readonly string[]).includes(def.relation as string)) {
      fail(`${field}.relation`, `must be one of ${RELATION_KINDS.join(', ')}`);
    }
    if (typeof def.target !== 'string' || (def.target !== collectionName && !targets.has(def.target))) {
      fail(`${field}.target`, 'must name an existing content type');
    }
    if (isManyRelation(def) && def.unique) fail(`${field}.unique`, 'does not apply to a many relation');
  }
  if (def.type === 'media') {
    const types = def.allowedTypes;
    if (
      types !== undefined &&
      (!Array.isArray(types) || !types.every((t) => t === 'images' || t === 'files'))
    ) {
      fail(`${field}.allowedTypes`, 'must be an array of images, files');
    }
    if (def.multiple && def.unique) fail(`${field}.unique`, 'does not apply to multiple media');
  }
  if (def.type === 'json' && def.unique) fail(`${field}.unique`, 'does not apply to a json field');
  if (errors.length === before && def.default !== undefined) {
    if (def.type === 'relation' || def.type === 'media') {
      fail(`${field}.default`, `a ${def.type} field takes no default`);
    } else {
      const checked = checkValue(def, def.default, compilePattern(def.regex));
      if (!checked.ok || def.default === null)
        fail(`${field}.default`, checked.ok ? 'must not be null' : checked.message);
    }
  }
  return def;
}

function checkRegex(pattern: unknown, field: string, fail: (field: string, message: string) => void) {
  if (typeof pattern !== 'string' || !pattern.length || pattern.length > 500) {
    fail(field, 'must be a pattern of at most 500 characters');
    return;
  }
  // Valid for JavaScript too, so the pattern published in the type's OpenAPI document means the same.
  try {
    new RegExp(pattern);
  } catch {
    fail(field, 'is not a valid regular expression');
    return;
  }
  const problem = linearPatternProblem(pattern);
  if (problem) fail(field, `is not supported (${problem}): backreferences and lookarounds are not allowed`);
}

/** SQL column type of an attribute; null when it lives in a join table. */
export function sqlTypeOf(def: AttributeDefinition): string | null {
  switch (def.type) {
    case 'string':
    case 'enumeration':
    case 'email':
    case 'uid':
      return `varchar(${stringWidth(def)})`;
    case 'text':
    case 'richtext':
      return 'text';
    case 'integer':
      return 'integer';
    case 'biginteger':
      return 'bigint';
    case 'float':
      return 'real';
    case 'decimal':
      return 'numeric(10,2)';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'time':
      return 'time';
    case 'datetime':
      return 'timestamptz';
    case 'json':
      return 'jsonb';
    case 'media':
      return def.multiple ? 'jsonb' : 'bigint';
    case 'relation':
      return isManyRelation(def) ? null : 'bigint';
  }
}

/** A stored definition turned into what the SQL builders need. */
export function compile(definition: ContentTypeDefinition): CompiledType {
  const table = tableName(definition.collectionName);
  const fields = new Map<string, CompiledField>();
  for (const [name, def] of Object.entries(definition.attributes)) {
    const column = columnName(name);
    const many = isManyRelation(def);
    fields.set(name, {
      name,
      column,
      def,
      sqlType: sqlTypeOf(def),
      joinTable: many ? joinTableName(definition.collectionName, column) : null,
      targetTable: def.type === 'relation' && def.target ? tableName(def.target) : null,
      regex: isStringType(def.type) ? compilePattern(def.regex) : null,
    });
  }
  const { options } = definition;
  return {
    definition,
    collectionName: definition.collectionName,
    name: definition.collectionName,
    table,
    system: systemFieldsFor(options),
    fields,
    companyScoped: options.companyScoped === true,
    draftAndPublish: options.draftAndPublish,
  };
}
