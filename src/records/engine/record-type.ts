import type { FieldPattern } from './patterns';

/** The field types the record engine knows (a custom table's attribute types, and every built-in column's). */
export const FIELD_TYPES = [
  'string',
  'text',
  'richtext',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'date',
  'time',
  'datetime',
  'json',
  'enumeration',
  'email',
  'uid',
  'media',
  'relation',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const RELATION_KINDS = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

/** What a field is and takes (a custom table's attribute as its callers write it). */
export interface AttributeDefinition {
  type: FieldType;
  required?: boolean;
  unique?: boolean;
  private?: boolean;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  min?: number;
  max?: number;
  enum?: string[];
  relation?: RelationKind;
  target?: string;
  multiple?: boolean;
  allowedTypes?: ('images' | 'files')[];
}

/** How a field is stored: a column of the type's table, or a join table of ids. */
export interface RecordField {
  name: string;
  column: string;
  def: AttributeDefinition;
  /** SQL type of the column; null for join-table relations. */
  sqlType: string | null;
  /** Join table of a oneToMany / manyToMany relation. */
  joinTable: string | null;
  /** Table of a relation's target. */
  targetTable: string | null;
  /** The `regex` option, evaluated in linear time (patterns.ts). */
  regex: FieldPattern | null;
}

/** A column every record of the type has (id, timestamps, company), by column and JSON name. */
export interface SystemField {
  column: string;
  json: string;
  /** Filter type (`datetime`, `integer`, ...) and SQL type of the column. */
  type: FieldType;
  sql: string;
  /** The values an enumeration column takes. */
  enum?: string[];
}

/**
 * A record type as the engine reads it: its table, its system fields and its fields by JSON name.
 * Custom tables compile their content-type definition into one (cms); built-in types describe
 * their columns beside their module (`<feature>.record-type.ts`).
 */
export interface RecordType {
  /** The type's name: a custom table's collection, a built-in's resource (`outages`). */
  name: string;
  table: string;
  system: readonly SystemField[];
  fields: Map<string, RecordField>;
  /** Records carry `company_id` and are seen within the caller's company scope. */
  companyScoped: boolean;
  /** Records carry a publication status (`status=draft|published` filters it). */
  draftAndPublish: boolean;
  /** Deleted records keep their row with `deleted_at` set and leave every read. */
  softDeleted?: boolean;
  /**
   * Where rows without a sort value go: last in either order (custom tables), or PostgreSQL's own
   * order, first when descending (built-in lists, as they have always answered).
   */
  nullsFirstWhenDescending?: boolean;
}

/** A record as answered: system fields and non-private fields by JSON name. */
export type EngineRecord = Record<string, unknown> & { id: number };
