import { AppError } from '../common/errors/app-error';
import { quoteIdent } from '../database/ddl';
import { isCompanyScoped } from './cms-company-scope';
import { SYSTEM_FIELDS } from './cms-names';
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

/**
 * The select list of a record: system fields and every non-private attribute, under their JSON
 * names; only those in `only` when given (names checked by the caller).
 */
export function selectList(type: CompiledType, only?: ReadonlySet<string>): string {
  const parts = systemFieldsOf(type)
    .filter(([, json]) => !only || only.has(json))
    .map(([column, json]) => `t.${quoteIdent(column)} AS "${json}"`);
  for (const field of type.fields.values()) {
    if (field.def.private || (only && !only.has(field.name))) continue;
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

/** A field records may be sorted by: a system field or non-private attribute, not json nor a many relation. */
export function sortField(type: CompiledType, sort: string): { column: string; field: CompiledField | null } {
  const target = queryableField(type, sort);
  if (!target || target.field?.joinTable || target.field?.def.type === 'json') {
    throw AppError.validation([{ field: 'sort', message: `cannot sort by "${sort}"` }]);
  }
  return target;
}
