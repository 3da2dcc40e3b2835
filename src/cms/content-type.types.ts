import type { FieldPattern } from './cms-regex';

/** The field types a custom table accepts. */
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

/** One attribute of a content type, as callers write it. */
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

/** A content type definition as stored and answered (collectionName without the `cms_` prefix). */
export interface ContentTypeDefinition {
  kind: 'collectionType';
  collectionName: string;
  info: { singularName: string; pluralName: string; displayName: string; description?: string };
  /** companyScoped: records carry a company (absent on types stored before the option: client scope). */
  options: { draftAndPublish: boolean; companyScoped?: boolean };
  attributes: Record<string, AttributeDefinition>;
}

/** How an attribute is stored: a column of the type's table, or a join table of ids. */
export interface CompiledField {
  name: string;
  column: string;
  def: AttributeDefinition;
  /** SQL type of the column; null for join-table relations. */
  sqlType: string | null;
  /** Join table of a oneToMany / manyToMany relation. */
  joinTable: string | null;
  /** Table of a relation's target. */
  targetTable: string | null;
  /** The `regex` option, evaluated in linear time (cms-regex.ts). */
  regex: FieldPattern | null;
}

/** A content type ready for SQL: its table and fields, by attribute name. */
export interface CompiledType {
  definition: ContentTypeDefinition;
  collectionName: string;
  table: string;
  fields: Map<string, CompiledField>;
}

/** A record of a custom table as answered: system fields and non-private attributes by JSON name. */
export type ContentRecord = Record<string, unknown> & { id: number };
