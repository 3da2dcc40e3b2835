import { AppError, FieldError } from '../common/errors/app-error';
import { quoteIdent } from '../database/ddl';
import { isCompanyScoped } from './cms-company-scope';
import { SYSTEM_FIELDS } from './cms-names';
import { checkValue } from './cms-values';
import { CompiledField, CompiledType, ContentRecord } from './content-type.types';

/** Growing list of SQL parameters; `add` answers the placeholder. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}

const PUBLICATION_FIELDS = new Set(['publishedAt', 'publishedById', 'publicationStatus']);

/** System fields a record of this type shows, as [column, JSON name]. */
export function systemFieldsOf(type: CompiledType) {
  return SYSTEM_FIELDS.filter(
    ([, json]) =>
      (type.definition.options.draftAndPublish || !PUBLICATION_FIELDS.has(json)) &&
      (json !== 'companyId' || isCompanyScoped(type)),
  );
}

/** The select list of a record: system fields and every non-private attribute, under their JSON names. */
export function selectList(type: CompiledType): string {
  const parts = systemFieldsOf(type).map(([column, json]) => `t.${quoteIdent(column)} AS "${json}"`);
  for (const field of type.fields.values()) {
    if (field.def.private) continue;
    parts.push(`${readExpression(field)} AS "${field.name}"`);
  }
  return parts.join(', ');
}

function readExpression(field: CompiledField): string {
  const column = `t.${quoteIdent(field.column)}`;
  if (field.joinTable) {
    return `COALESCE((SELECT json_agg(j."target_id" ORDER BY j."target_id") FROM ${quoteIdent(field.joinTable)} j WHERE j."source_id" = t."id"), '[]'::json)`;
  }
  if (field.def.type === 'date' || field.def.type === 'time') return `${column}::text`;
  if (field.def.type === 'decimal') return `${column}::float8`;
  return column;
}

/** A row as a record: bigint columns (strings from the driver) as numbers when they fit. */
export function toRecord(type: CompiledType, row: Record<string, unknown>): ContentRecord {
  const out: ContentRecord = { ...row, id: Number(row.id) };
  for (const field of type.fields.values()) {
    const v = out[field.name];
    if (typeof v === 'string' && field.sqlType === 'bigint') {
      const n = Number(v);
      out[field.name] = Number.isSafeInteger(n) ? n : v;
    }
  }
  return out;
}

/** What a caller may filter and sort on: system fields and non-private attributes, by JSON name. */
export function queryableField(
  type: CompiledType,
  name: string,
): { column: string; field: CompiledField | null } | null {
  const system = systemFieldsOf(type).find(([, json]) => json === name);
  if (system) return { column: system[0], field: null };
  const field = type.fields.get(name);
  if (!field || field.def.private) return null;
  return { column: field.column, field };
}

export function orderBy(type: CompiledType, sort: string, order: 'ASC' | 'DESC'): string {
  const target = queryableField(type, sort);
  if (!target || target.field?.joinTable || target.field?.def.type === 'json') {
    throw AppError.validation([{ field: 'sort', message: `cannot sort by "${sort}"` }]);
  }
  const dir = order === 'ASC' ? 'ASC' : 'DESC';
  return target.column === 'id'
    ? `t."id" ${dir}`
    : `t.${quoteIdent(target.column)} ${dir} NULLS LAST, t."id" ${dir}`;
}

const OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$contains', '$in', '$null'] as const;
type Operator = (typeof OPERATORS)[number];

const SYSTEM_TYPES: Record<string, { type: string; sql: string }> = {
  id: { type: 'biginteger', sql: 'bigint' },
  created_at: { type: 'datetime', sql: 'timestamptz' },
  updated_at: { type: 'datetime', sql: 'timestamptz' },
  created_by_id: { type: 'integer', sql: 'integer' },
  updated_by_id: { type: 'integer', sql: 'integer' },
  published_at: { type: 'datetime', sql: 'timestamptz' },
  published_by_id: { type: 'integer', sql: 'integer' },
  publication_status: { type: 'enumeration', sql: 'varchar(20)' },
  company_id: { type: 'integer', sql: 'integer' },
};

/**
 * The WHERE conditions of a search body: `{ field: value }` is equality, `{ field: { $op: value } }`
 * an operator. Unknown fields and operators, private fields and values the field cannot hold are
 * 400 naming the field; every value is a parameter.
 */
export function searchConditions(type: CompiledType, body: unknown, params: Params): string[] {
  if (body === undefined || body === null) return [];
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw AppError.validation([{ field: 'body', message: 'must be an object of field filters' }]);
  }
  const errors: FieldError[] = [];
  const conditions: string[] = [];
  for (const [name, raw] of Object.entries(body as Record<string, unknown>)) {
    const target = queryableField(type, name);
    if (!target) {
      errors.push({ field: name, message: 'is not a field of this content type' });
      continue;
    }
    const ops: [string, unknown][] =
      raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? Object.entries(raw) : [['$eq', raw]];
    if (!ops.length) errors.push({ field: name, message: 'needs an operator' });
    for (const [op, value] of ops) {
      if (!(OPERATORS as readonly string[]).includes(op)) {
        errors.push({ field: `${name}.${op}`, message: `unknown operator; use ${OPERATORS.join(', ')}` });
        continue;
      }
      const sql = condition(target.column, target.field, op as Operator, value, params);
      if (typeof sql === 'string') conditions.push(sql);
      else errors.push({ field: name, message: sql.message });
    }
  }
  if (errors.length) throw AppError.validation(errors);
  return conditions;
}

function condition(
  column: string,
  field: CompiledField | null,
  op: Operator,
  value: unknown,
  params: Params,
): string | { message: string } {
  const col = `t.${quoteIdent(column)}`;
  if (op === '$null') {
    if (typeof value !== 'boolean') return { message: '$null takes true or false' };
    if (field?.joinTable) {
      const exists = `EXISTS (SELECT 1 FROM ${quoteIdent(field.joinTable)} j WHERE j."source_id" = t."id")`;
      return value ? `NOT ${exists}` : exists;
    }
    return `${col} IS ${value ? '' : 'NOT '}NULL`;
  }
  const def = field
    ? { ...field.def, required: false }
    : { type: SYSTEM_TYPES[column].type, enum: ['DRAFT', 'PUBLISHED'] };
  const sqlType = field ? field.sqlType : SYSTEM_TYPES[column].sql;
  const one = (v: unknown) => {
    if (field?.joinTable || field?.def.type === 'relation') {
      return typeof v === 'number' && Number.isSafeInteger(v) && v > 0
        ? { ok: true as const, value: v }
        : { ok: false as const, message: 'must be a record id' };
    }
    if (field?.def.type === 'media' && field.def.multiple) {
      return typeof v === 'number' && Number.isSafeInteger(v) && v > 0
        ? { ok: true as const, value: v }
        : { ok: false as const, message: 'must be a file id' };
    }
    // Filters compare against the type, not the options a stored value must meet.
    const loose = {
      ...(def as never as CompiledField['def']),
      min: undefined,
      max: undefined,
      minLength: undefined,
      regex: undefined,
      maxLength: undefined,
    };
    return checkValue(loose, v, null);
  };
  if (op === '$in') {
    if (!Array.isArray(value) || !value.length || value.length > 1000)
      return { message: '$in takes a non-empty array' };
    const checked = value.map(one);
    const badOne = checked.find((c) => !c.ok);
    if (badOne && !badOne.ok) return { message: badOne.message };
    const list = checked.map((c) => (c.ok ? c.value : null));
    if (field?.joinTable) {
      return `EXISTS (SELECT 1 FROM ${quoteIdent(field.joinTable)} j WHERE j."source_id" = t."id" AND j."target_id" = ANY(${params.add(list, 'bigint[]')}))`;
    }
    if (field?.def.type === 'media' && field.def.multiple)
      return { message: '$in does not apply to multiple media' };
    return `${col} = ANY(${params.add(list, `${sqlType}[]`)})`;
  }
  if (op === '$contains') {
    if (field?.def.type === 'json') return `${col} @> ${params.add(JSON.stringify(value), 'jsonb')}`;
    if (field?.def.type === 'media' && field.def.multiple) {
      const checked = one(value);
      return checked.ok
        ? `${col} @> ${params.add(JSON.stringify([checked.value]), 'jsonb')}`
        : { message: checked.message };
    }
    if (field?.joinTable) {
      const checked = one(value);
      return checked.ok
        ? `EXISTS (SELECT 1 FROM ${quoteIdent(field.joinTable)} j WHERE j."source_id" = t."id" AND j."target_id" = ${params.add(checked.value, 'bigint')})`
        : { message: checked.message };
    }
    if (typeof value !== 'string' || !sqlType || !(sqlType === 'text' || sqlType.startsWith('varchar'))) {
      return { message: '$contains takes a string on a text field' };
    }
    const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`);
    return `${col} ILIKE ${params.add(`%${escaped}%`)}`;
  }
  if (value === null)
    return op === '$ne'
      ? `${col} IS NOT NULL`
      : op === '$eq'
        ? `${col} IS NULL`
        : { message: `${op} takes a value` };
  if (field?.joinTable) {
    if (op !== '$eq' && op !== '$ne') return { message: `${op} does not apply to a many relation` };
    const checked = one(value);
    if (!checked.ok) return { message: checked.message };
    const exists = `EXISTS (SELECT 1 FROM ${quoteIdent(field.joinTable)} j WHERE j."source_id" = t."id" AND j."target_id" = ${params.add(checked.value, 'bigint')})`;
    return op === '$eq' ? exists : `NOT ${exists}`;
  }
  if (field?.def.type === 'json' || (field?.def.type === 'media' && field.def.multiple)) {
    if (op !== '$eq' && op !== '$ne') return { message: `${op} does not apply to this field` };
    return `${col} ${op === '$eq' ? '=' : 'IS DISTINCT FROM'} ${params.add(JSON.stringify(value), 'jsonb')}`;
  }
  const checked = one(value);
  if (!checked.ok) return { message: checked.message };
  const placeholder = params.add(checked.value, sqlType!);
  const sqlOp = { $eq: '=', $ne: 'IS DISTINCT FROM', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op];
  if (field?.def.type === 'boolean' && !['$eq', '$ne'].includes(op))
    return { message: `${op} does not apply to a boolean` };
  return `${col} ${sqlOp} ${placeholder}`;
}
