import { AppError, FieldError } from '../../common/errors/app-error';
import { quoteIdent } from '../../database/identifiers';
import { fieldCondition, isOperator, OPERATORS } from './conditions';
import { Params } from './params';
import { RecordField, RecordType } from './record-type';
import { queryableField } from './select';

/** Deepest nesting of a filter: the body is level 1, each `$and`/`$or`/`$not` goes one deeper. */
export const MAX_FILTER_DEPTH = 5;
/** Most field conditions (one per field and operator, relation targets' included) in one filter. */
export const MAX_FILTER_CONDITIONS = 50;

const LOGICAL = ['$and', '$or', '$not'] as const;

/** What a filter is compiled against: the type, its alias in the statement, the schema's types. */
export interface FilterScope {
  type: RecordType;
  /** Every type of the schema, for filters through a manyToOne / oneToOne relation. */
  types: ReadonlyMap<string, RecordType>;
  /**
   * Throws (403) when the caller may not read the records of a relation target the filter reaches
   * at `path`; called before any of the target's fields is looked at.
   */
  assertReadable: (target: RecordType, path: string) => void;
  /**
   * The condition a relation target's rows (aliased `alias`) must meet to be visible to the caller
   * (e.g. their company), or null when all are.
   */
  targetVisibility: (target: RecordType, alias: string, params: Params) => string | null;
}

interface Walk {
  params: Params;
  errors: FieldError[];
  conditions: number;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The WHERE condition of a filter body, or null for an empty one. `{ field: value }` is equality,
 * `{ field: { $op: value } }` an operator, `{ relation: { targetField: ... } }` a condition on the
 * target of a manyToOne / oneToOne relation (one level), `$and` / `$or` arrays and `$not` objects
 * combine filters. Every field, operator and value is checked before SQL (400 naming its path);
 * private fields are never reachable; a relation's target is reached only through
 * `scope` (the caller's read permission and the rows they see); values are parameters.
 */
export function filterSql(scope: FilterScope, body: unknown, params: Params, alias = 't'): string | null {
  if (body === undefined || body === null) return null;
  if (!isObject(body)) {
    throw AppError.validation([{ field: 'body', message: 'must be an object of field filters' }]);
  }
  const walk: Walk = { params, errors: [], conditions: 0 };
  const sql = objectSql(scope, scope.type, alias, body, walk, '', 1, true);
  if (walk.errors.length) throw AppError.validation(walk.errors);
  return sql;
}

function limitError(message: string): AppError {
  return AppError.validation([{ field: 'body', message }]);
}

/** One filter object: its entries and-ed. */
function objectSql(
  scope: FilterScope,
  type: RecordType,
  alias: string,
  body: Record<string, unknown>,
  walk: Walk,
  path: string,
  depth: number,
  relationsAllowed: boolean,
): string | null {
  if (depth > MAX_FILTER_DEPTH) {
    throw limitError(`filters nest at most ${MAX_FILTER_DEPTH} levels deep`);
  }
  const parts: string[] = [];
  for (const [key, raw] of Object.entries(body)) {
    const at = path ? `${path}.${key}` : key;
    if (key.startsWith('$')) {
      const sql = logicalSql(scope, type, alias, key, raw, walk, at, depth, relationsAllowed);
      if (sql) parts.push(sql);
      continue;
    }
    const target = queryableField(type, key);
    if (!target) {
      walk.errors.push({ field: at, message: 'is not a field of this type' });
      continue;
    }
    const relation = target.field && relationTarget(target.field, raw);
    if (relation) {
      if (!relationsAllowed) {
        walk.errors.push({ field: at, message: 'filters through relations go one level deep' });
        continue;
      }
      const sql = relationSql(scope, alias, target.field!, raw as Record<string, unknown>, walk, at, depth);
      if (sql) parts.push(sql);
      continue;
    }
    const ops: [string, unknown][] = isObject(raw) ? Object.entries(raw) : [['$eq', raw]];
    if (!ops.length) walk.errors.push({ field: at, message: 'needs an operator' });
    for (const [op, value] of ops) {
      if (!isOperator(op)) {
        walk.errors.push({ field: `${at}.${op}`, message: `unknown operator; use ${OPERATORS.join(', ')}` });
        continue;
      }
      if (++walk.conditions > MAX_FILTER_CONDITIONS) {
        throw limitError(`a filter holds at most ${MAX_FILTER_CONDITIONS} conditions`);
      }
      const sql = fieldCondition(alias, target, op, value, walk.params);
      if (typeof sql === 'string') parts.push(sql);
      else walk.errors.push({ field: at, message: sql.message });
    }
  }
  if (!parts.length) return null;
  return parts.length === 1 ? parts[0] : `(${parts.join(' AND ')})`;
}

function logicalSql(
  scope: FilterScope,
  type: RecordType,
  alias: string,
  key: string,
  raw: unknown,
  walk: Walk,
  at: string,
  depth: number,
  relationsAllowed: boolean,
): string | null {
  if (key === '$not') {
    if (!isObject(raw) || !Object.keys(raw).length) {
      walk.errors.push({ field: at, message: '$not takes a non-empty filter object' });
      return null;
    }
    const inner = objectSql(scope, type, alias, raw, walk, at, depth + 1, relationsAllowed);
    // Rows the inner filter does not match, those it cannot decide (NULL) included.
    return inner ? `(${inner}) IS NOT TRUE` : null;
  }
  if (key === '$and' || key === '$or') {
    if (!Array.isArray(raw) || !raw.length || !raw.every(isObject)) {
      walk.errors.push({ field: at, message: `${key} takes a non-empty array of filter objects` });
      return null;
    }
    const parts = raw
      .map((item, i) => objectSql(scope, type, alias, item, walk, `${at}.${i}`, depth + 1, relationsAllowed))
      .filter((sql): sql is string => !!sql);
    if (!parts.length) return null;
    return `(${parts.join(key === '$and' ? ' AND ' : ' OR ')})`;
  }
  walk.errors.push({ field: at, message: `unknown operator; use ${LOGICAL.join(', ')} or a field name` });
  return null;
}

/** A manyToOne / oneToOne field given an object whose keys are not operators: a filter on its target. */
function relationTarget(field: RecordField, raw: unknown): boolean {
  if (field.def.type !== 'relation' || field.joinTable || !isObject(raw)) return false;
  const keys = Object.keys(raw);
  return (
    keys.length > 0 && keys.every((k) => !k.startsWith('$') || (LOGICAL as readonly string[]).includes(k))
  );
}

function relationSql(
  scope: FilterScope,
  alias: string,
  field: RecordField,
  raw: Record<string, unknown>,
  walk: Walk,
  at: string,
  depth: number,
): string | null {
  const target = scope.types.get(field.def.target ?? '');
  if (!target) {
    walk.errors.push({ field: at, message: 'its target is not a record type of this schema' });
    return null;
  }
  scope.assertReadable(target, at);
  const inner = `${alias}_r`;
  const sql = objectSql(scope, target, inner, raw, walk, at, depth + 1, false);
  if (!sql) return null;
  const visible = scope.targetVisibility(target, inner, walk.params);
  return `EXISTS (SELECT 1 FROM ${quoteIdent(target.table)} ${inner} WHERE ${inner}."id" = ${alias}.${quoteIdent(field.column)} AND ${sql}${visible ? ` AND ${visible}` : ''})`;
}
