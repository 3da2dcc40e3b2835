import { AppError, FieldError } from '../../common/errors/app-error';
import { quoteIdent } from '../../database/identifiers';
import { Params } from './params';
import { RecordField, RecordType } from './record-type';
import { queryableField } from './select';
import { isNumberType } from './values';

export const AGGREGATES = ['count', 'countDistinct', 'sum', 'avg', 'min', 'max'] as const;
export type Aggregate = (typeof AGGREGATES)[number];
export const INTERVALS = ['day', 'week', 'month', 'year'] as const;
/** Most groupBy entries, aggregated fields (over all functions) and groups of one answer. */
export const MAX_GROUP_BY = 5;
export const MAX_AGGREGATED = 20;
export const MAX_GROUPS = 1000;

const BODY_KEYS = ['aggregate', 'groupBy', 'filter'];

interface Column {
  name: string;
  column: string;
  field: RecordField | null;
  sqlType: string | null;
  /** The attribute or system type (`datetime`, `integer`, ...). */
  kind: string;
}

/** One aggregate query, checked: SQL parts under generated aliases, and how to read them back. */
export interface AggregatePlan {
  /** `key`: what the rows are grouped and ordered by; `sql`: how a group's value is answered. */
  groups: { name: string; alias: string; key: string; sql: string; bigint: boolean }[];
  values: { fn: Aggregate; name: string; alias: string; sql: string }[];
  filter: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Reads `{ aggregate: { count: ['*'], sum: ['capacity'], ... }, groupBy: ['region', { field,
 * interval }], filter }`: every function, field and interval checked (400 naming its path), private
 * fields unreachable; the SQL uses only checked column names and generated aliases.
 */
export function planAggregate(type: RecordType, body: unknown): AggregatePlan {
  if (!isObject(body)) throw AppError.validation([{ field: 'body', message: 'must be an object' }]);
  const errors: FieldError[] = [];
  for (const key of Object.keys(body)) {
    if (!BODY_KEYS.includes(key))
      errors.push({ field: key, message: `is not accepted; use ${BODY_KEYS.join(', ')}` });
  }
  const plan: AggregatePlan = { groups: [], values: [], filter: body.filter };
  const aggregate = body.aggregate;
  if (!isObject(aggregate) || !Object.keys(aggregate).length) {
    errors.push({ field: 'aggregate', message: `must name at least one of ${AGGREGATES.join(', ')}` });
  } else {
    for (const [fn, names] of Object.entries(aggregate)) {
      const at = `aggregate.${fn}`;
      if (!(AGGREGATES as readonly string[]).includes(fn)) {
        errors.push({ field: at, message: `unknown function; use ${AGGREGATES.join(', ')}` });
        continue;
      }
      if (!Array.isArray(names) || !names.length || !names.every((n) => typeof n === 'string')) {
        errors.push({ field: at, message: 'takes a non-empty array of field names' });
        continue;
      }
      for (const name of new Set(names)) {
        const sql = aggregateSql(type, fn as Aggregate, name);
        if (typeof sql === 'string') {
          plan.values.push({ fn: fn as Aggregate, name, alias: `a${plan.values.length}`, sql });
        } else errors.push({ field: `${at}.${name}`, message: sql.message });
      }
    }
    if (plan.values.length > MAX_AGGREGATED) {
      errors.push({ field: 'aggregate', message: `aggregates at most ${MAX_AGGREGATED} fields` });
    }
  }
  const groupBy = body.groupBy ?? [];
  if (!Array.isArray(groupBy) || groupBy.length > MAX_GROUP_BY) {
    errors.push({ field: 'groupBy', message: `takes an array of at most ${MAX_GROUP_BY} fields` });
  } else {
    groupBy.forEach((entry, i) => {
      const group = groupSql(type, entry);
      if ('message' in group) errors.push({ field: `groupBy.${i}`, message: group.message });
      else if (plan.groups.some((g) => g.name === group.name)) {
        errors.push({ field: `groupBy.${i}`, message: 'names a field twice' });
      } else plan.groups.push({ ...group, alias: `g${plan.groups.length}` });
    });
  }
  if (errors.length) throw AppError.validation(errors);
  return plan;
}

function columnOf(type: RecordType, name: string): Column | { message: string } {
  const target = queryableField(type, name);
  if (!target) return { message: 'is not a field of this type' };
  if (target.field?.joinTable) return { message: 'is a many relation' };
  const kind = target.field ? target.field.def.type : target.system!.type;
  return { name, column: target.column, field: target.field, sqlType: target.system?.sql ?? null, kind };
}

function aggregateSql(type: RecordType, fn: Aggregate, name: string): string | { message: string } {
  if (name === '*') return fn === 'count' ? 'count(*)' : { message: '* is only for count' };
  const c = columnOf(type, name);
  if ('message' in c) return c;
  const col = `t.${quoteIdent(c.column)}`;
  if (fn === 'count') return `count(${col})`;
  if (fn === 'countDistinct') return `count(DISTINCT ${col})`;
  if (fn === 'sum' || fn === 'avg') {
    return isNumberType(c.kind) ? `${fn}(${col})::float8` : { message: `${fn} takes a number field` };
  }
  if (isNumberType(c.kind)) return `${fn}(${col})::float8`;
  if (c.kind === 'date' || c.kind === 'time') return `${fn}(${col})::text`;
  if (['datetime', 'string', 'text', 'richtext', 'email', 'uid', 'enumeration'].includes(c.kind)) {
    return `${fn}(${col})`;
  }
  return { message: `${fn} does not apply to a ${c.kind} field` };
}

function groupSql(
  type: RecordType,
  entry: unknown,
): { name: string; key: string; sql: string; bigint: boolean } | { message: string } {
  const name = typeof entry === 'string' ? entry : isObject(entry) ? entry.field : undefined;
  if (typeof name !== 'string') return { message: 'must be a field name or { field, interval }' };
  if (isObject(entry) && Object.keys(entry).some((k) => k !== 'field' && k !== 'interval')) {
    return { message: 'takes only field and interval' };
  }
  const c = columnOf(type, name);
  if ('message' in c) return c;
  if (c.kind === 'json' || (c.field?.def.type === 'media' && c.field.def.multiple)) {
    return { message: `cannot group by a ${c.kind} field` };
  }
  const col = `t.${quoteIdent(c.column)}`;
  const bigint = c.field ? c.field.sqlType === 'bigint' : c.sqlType === 'bigint';
  const interval = isObject(entry) ? entry.interval : undefined;
  // Rows are grouped by the column or its truncation and only each group's value is turned into
  // text: a cast in the GROUP BY would run once per row. Decimals group as the float8 they are answered as.
  if (interval === undefined) {
    if (c.kind === 'date' || c.kind === 'time') return { name, key: col, sql: `${col}::text`, bigint };
    if (c.kind === 'decimal') return { name, key: `${col}::float8`, sql: `${col}::float8`, bigint };
    return { name, key: col, sql: col, bigint };
  }
  if (!(INTERVALS as readonly string[]).includes(interval as string)) {
    return { message: `interval must be one of ${INTERVALS.join(', ')}` };
  }
  // The interval is one of four fixed words, written into the SQL as a literal of its own.
  const unit = `'${interval as string}'`;
  if (c.kind === 'datetime') {
    const key = `date_trunc(${unit}, ${col}, 'UTC')`;
    return { name, key, sql: key, bigint: false };
  }
  if (c.kind === 'date') {
    // As a timestamp without time zone: no zone arithmetic per row, and the day stays the date's own.
    const key = `date_trunc(${unit}, ${col}::timestamp)`;
    return { name, key, sql: `(${key})::date::text`, bigint: false };
  }
  return { message: 'an interval applies to date and datetime fields' };
}

/** The statement of a plan over the rows meeting `where`. */
export function aggregateStatement(
  type: RecordType,
  plan: AggregatePlan,
  where: string[],
  params: Params,
): string {
  const select = [
    ...plan.groups.map((g) => `${g.sql} AS "${g.alias}"`),
    ...plan.values.map((v) => `${v.sql} AS "${v.alias}"`),
  ];
  const keys = plan.groups.map((g) => g.key).join(', ');
  const grouped = plan.groups.length ? ` GROUP BY ${keys} ORDER BY ${keys}` : '';
  return `SELECT ${select.join(', ')} FROM ${quoteIdent(type.table)} t${
    where.length ? ` WHERE ${where.join(' AND ')}` : ''
  }${grouped} LIMIT ${params.add(MAX_GROUPS + 1)}`;
}

/** Rows of the statement as `{ group: { field: value }, count: { field: n }, sum: {...}, ... }`. */
export function aggregateRows(plan: AggregatePlan, rows: Record<string, unknown>[]) {
  if (rows.length > MAX_GROUPS) {
    throw AppError.validation([
      {
        field: 'groupBy',
        message: `makes more than ${MAX_GROUPS} groups; narrow the filter or the grouping`,
      },
    ]);
  }
  return rows.map((row) => {
    const out: Record<string, Record<string, unknown>> = {};
    if (plan.groups.length) {
      out.group = {};
      for (const g of plan.groups) {
        const v = row[g.alias];
        out.group[g.name] =
          g.bigint && typeof v === 'string' && Number.isSafeInteger(Number(v)) ? Number(v) : v;
      }
    }
    for (const v of plan.values) {
      const value = row[v.alias];
      (out[v.fn] ??= {})[v.name] = v.fn === 'count' || v.fn === 'countDistinct' ? Number(value) : value;
    }
    return out;
  });
}
