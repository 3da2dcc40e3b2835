import { AppError } from '../../common/errors/app-error';
import { quoteIdent } from '../../database/identifiers';
import { EngineRecord, RecordField, RecordType, SystemField } from './record-type';

/**
 * The select list of a record: system fields and every non-private field, under their JSON
 * names; only those in `only` when given (names checked by the caller).
 */
export function selectList(type: RecordType, only?: ReadonlySet<string>): string {
  const parts = type.system
    .filter(({ json }) => !only || only.has(json))
    .map(({ column, json }) => `t.${quoteIdent(column)} AS "${json}"`);
  for (const field of type.fields.values()) {
    if (field.def.private || (only && !only.has(field.name))) continue;
    parts.push(`${readExpression(field)} AS "${field.name}"`);
  }
  return parts.join(', ');
}

function readExpression(field: RecordField): string {
  const column = `t.${quoteIdent(field.column)}`;
  if (field.joinTable) {
    return `COALESCE((SELECT json_agg(j."target_id" ORDER BY j."target_id") FROM ${quoteIdent(field.joinTable)} j WHERE j."source_id" = t."id"), '[]'::json)`;
  }
  if (field.def.type === 'date' || field.def.type === 'time') return `${column}::text`;
  if (field.def.type === 'decimal') return `${column}::float8`;
  return column;
}

/** A row as a record: bigint columns (strings from the driver) as numbers when they fit. */
export function toRecord(type: RecordType, row: Record<string, unknown>): EngineRecord {
  const out: EngineRecord = { ...row, id: Number(row.id) };
  for (const field of type.fields.values()) {
    const v = out[field.name];
    if (typeof v === 'string' && field.sqlType === 'bigint') {
      const n = Number(v);
      out[field.name] = Number.isSafeInteger(n) ? n : v;
    }
  }
  return out;
}

/** A field a caller may name: a system field (`field` null) or a non-private field. */
export interface QueryableField {
  column: string;
  field: RecordField | null;
  system: SystemField | null;
}

/** What a caller may filter and sort on: system fields and non-private fields, by JSON name. */
export function queryableField(type: RecordType, name: string): QueryableField | null {
  const system = type.system.find(({ json }) => json === name);
  if (system) return { column: system.column, field: null, system };
  const field = type.fields.get(name);
  if (!field || field.def.private) return null;
  return { column: field.column, field, system: null };
}

/** A field records may be sorted by: a system field or non-private field, not json nor a many relation. */
export function sortField(type: RecordType, sort: string): QueryableField {
  const target = queryableField(type, sort);
  if (!target || target.field?.joinTable || target.field?.def.type === 'json') {
    throw AppError.validation([{ field: 'sort', message: `cannot sort by "${sort}"` }]);
  }
  return target;
}

/** The SQL type of a queryable field's column. */
export const sqlTypeOf = (target: QueryableField): string =>
  target.field ? target.field.sqlType! : target.system!.sql;
