import { quoteIdent } from '../../database/identifiers';
import { Params } from './params';
import { RecordField } from './record-type';
import { QueryableField } from './select';
import { checkValue } from './values';

/** Field operators of filters. */
export const OPERATORS = [
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$between',
  '$in',
  '$nin',
  '$contains',
  '$icontains',
  '$startsWith',
  '$endsWith',
  '$null',
  '$notNull',
] as const;
export type Operator = (typeof OPERATORS)[number];

export const isOperator = (op: string): op is Operator => (OPERATORS as readonly string[]).includes(op);

/** Most values of `$in` and `$nin`. */
export const MAX_IN_VALUES = 1000;

type Failure = { message: string };
type Checked = { ok: true; value: unknown } | { ok: false; message: string };

const COMPARISONS = {
  $eq: '=',
  $ne: 'IS DISTINCT FROM',
  $gt: '>',
  $gte: '>=',
  $lt: '<',
  $lte: '<=',
} as const;

/** A LIKE pattern whose wildcards and escape character in `value` are literal. */
export const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

const isTextColumn = (sqlType: string | null | undefined) =>
  !!sqlType && (sqlType === 'text' || sqlType.startsWith('varchar'));

/**
 * One operator on one column of the row aliased `alias`: the SQL condition, or why the operator or
 * value does not fit the field. Values are parameters.
 */
export function fieldCondition(
  alias: string,
  target: QueryableField,
  op: Operator,
  value: unknown,
  params: Params,
): string | Failure {
  const { column, field } = target;
  const col = `${alias}.${quoteIdent(column)}`;
  const join = field?.joinTable ? quoteIdent(field.joinTable) : null;
  const linked = (extra: string) =>
    `EXISTS (SELECT 1 FROM ${join} j WHERE j."source_id" = ${alias}."id"${extra})`;
  const multipleMedia = field?.def.type === 'media' && !!field.def.multiple;
  const one = valueChecker(target);
  const sqlType = field ? field.sqlType : target.system!.sql;

  if (op === '$null' || op === '$notNull') {
    if (op === '$notNull' && value !== true) return { message: '$notNull takes true' };
    if (typeof value !== 'boolean') return { message: '$null takes true or false' };
    const isNull = op === '$null' ? value : false;
    if (join) return isNull ? `NOT ${linked('')}` : linked('');
    return `${col} IS ${isNull ? '' : 'NOT '}NULL`;
  }
  if (op === '$in' || op === '$nin') {
    if (!Array.isArray(value) || !value.length || value.length > MAX_IN_VALUES)
      return { message: `${op} takes an array of 1 to ${MAX_IN_VALUES} values` };
    const checked = value.map(one);
    const bad = checked.find((c) => !c.ok);
    if (bad && !bad.ok) return { message: bad.message };
    const list = checked.map((c) => (c.ok ? c.value : null));
    if (multipleMedia || field?.def.type === 'json') return { message: `${op} does not apply to this field` };
    const any = join
      ? linked(` AND j."target_id" = ANY(${params.add(list, 'bigint[]')})`)
      : `${col} = ANY(${params.add(list, `${sqlType}[]`)})`;
    // $nin: rows holding none of the values, rows without a value included (as $ne).
    return op === '$in' ? any : join ? `NOT ${any}` : `(${any}) IS NOT TRUE`;
  }
  if (op === '$contains' && (field?.def.type === 'json' || multipleMedia || join)) {
    if (field?.def.type === 'json') return `${col} @> ${params.add(JSON.stringify(value), 'jsonb')}`;
    const checked = one(value);
    if (!checked.ok) return { message: checked.message };
    if (multipleMedia) return `${col} @> ${params.add(JSON.stringify([checked.value]), 'jsonb')}`;
    return linked(` AND j."target_id" = ${params.add(checked.value, 'bigint')}`);
  }
  if (op === '$contains' || op === '$icontains' || op === '$startsWith' || op === '$endsWith') {
    if (typeof value !== 'string' || !isTextColumn(sqlType) || join) {
      return { message: `${op} takes a string on a text field` };
    }
    const literal = likeLiteral(value);
    const pattern =
      op === '$startsWith' ? `${literal}%` : op === '$endsWith' ? `%${literal}` : `%${literal}%`;
    // $contains has always been case-insensitive; $startsWith and $endsWith are exact.
    const like = op === '$contains' || op === '$icontains' ? 'ILIKE' : 'LIKE';
    return `${col} ${like} ${params.add(pattern)}`;
  }
  if (op === '$between') {
    if (!Array.isArray(value) || value.length !== 2 || value.some((v) => v === null)) {
      return { message: '$between takes [low, high]' };
    }
    if (join || multipleMedia || field?.def.type === 'json' || field?.def.type === 'boolean') {
      return { message: '$between does not apply to this field' };
    }
    const [low, high] = value.map(one);
    if (!low.ok) return { message: low.message };
    if (!high.ok) return { message: high.message };
    return `${col} BETWEEN ${params.add(low.value, sqlType!)} AND ${params.add(high.value, sqlType!)}`;
  }
  if (value === null) {
    if (op === '$ne') return join ? linked('') : `${col} IS NOT NULL`;
    if (op === '$eq') return join ? `NOT ${linked('')}` : `${col} IS NULL`;
    return { message: `${op} takes a value` };
  }
  if (join) {
    if (op !== '$eq' && op !== '$ne') return { message: `${op} does not apply to a many relation` };
    const checked = one(value);
    if (!checked.ok) return { message: checked.message };
    const exists = linked(` AND j."target_id" = ${params.add(checked.value, 'bigint')}`);
    return op === '$eq' ? exists : `NOT ${exists}`;
  }
  if (field?.def.type === 'json' || multipleMedia) {
    if (op !== '$eq' && op !== '$ne') return { message: `${op} does not apply to this field` };
    return `${col} ${op === '$eq' ? '=' : 'IS DISTINCT FROM'} ${params.add(JSON.stringify(value), 'jsonb')}`;
  }
  if (field?.def.type === 'boolean' && op !== '$eq' && op !== '$ne') {
    return { message: `${op} does not apply to a boolean` };
  }
  const checked = one(value);
  if (!checked.ok) return { message: checked.message };
  return `${col} ${COMPARISONS[op]} ${params.add(checked.value, sqlType!)}`;
}

/** Checks one filter value against the field's type (not the options a stored value must meet). */
export function valueChecker({ field, system }: QueryableField): (v: unknown) => Checked {
  return (v) => {
    if (field?.joinTable || field?.def.type === 'relation') {
      return typeof v === 'number' && Number.isSafeInteger(v) && v > 0
        ? { ok: true, value: v }
        : { ok: false, message: 'must be a record id' };
    }
    if (field?.def.type === 'media' && field.def.multiple) {
      return typeof v === 'number' && Number.isSafeInteger(v) && v > 0
        ? { ok: true, value: v }
        : { ok: false, message: 'must be a file id' };
    }
    const def = field ? { ...field.def, required: false } : { type: system!.type, enum: system!.enum };
    const loose = {
      ...(def as RecordField['def']),
      min: undefined,
      max: undefined,
      minLength: undefined,
      maxLength: undefined,
      regex: undefined,
    };
    return checkValue(loose, v, null);
  };
}
