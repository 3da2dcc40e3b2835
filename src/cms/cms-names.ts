import { createHash } from 'node:crypto';
import type { SystemField } from '../records/engine/record-type';

/** Collection names: lowercase, starting with a letter, at most 40 characters. */
export const COLLECTION_NAME = /^[a-z][a-z0-9_]{0,39}$/;
/** Attribute names: a letter, then letters, digits or `_`, at most 63 characters. */
export const ATTRIBUTE_NAME = /^[a-z][a-zA-Z0-9_]{0,62}$/;

/** Columns every custom table has, by column name and by the JSON name records carry. */
export const SYSTEM_FIELDS = [
  ['id', 'id'],
  ['created_at', 'createdAt'],
  ['updated_at', 'updatedAt'],
  ['created_by_id', 'createdById'],
  ['updated_by_id', 'updatedById'],
  ['published_at', 'publishedAt'],
  ['published_by_id', 'publishedById'],
  ['publication_status', 'publicationStatus'],
  ['company_id', 'companyId'],
] as const;
export const SYSTEM_COLUMNS: ReadonlySet<string> = new Set(SYSTEM_FIELDS.map(([column]) => column));

/** Filter type and column type of the system columns. */
const SYSTEM_TYPES: Record<string, Pick<SystemField, 'type' | 'sql' | 'enum'>> = {
  id: { type: 'biginteger', sql: 'bigint' },
  created_at: { type: 'datetime', sql: 'timestamptz' },
  updated_at: { type: 'datetime', sql: 'timestamptz' },
  created_by_id: { type: 'integer', sql: 'integer' },
  updated_by_id: { type: 'integer', sql: 'integer' },
  published_at: { type: 'datetime', sql: 'timestamptz' },
  published_by_id: { type: 'integer', sql: 'integer' },
  publication_status: { type: 'enumeration', sql: 'varchar(20)', enum: ['DRAFT', 'PUBLISHED'] },
  company_id: { type: 'integer', sql: 'integer' },
};

const PUBLICATION_FIELDS = new Set(['publishedAt', 'publishedById', 'publicationStatus']);

/** The system fields a record of a type with these options shows. */
export function systemFieldsFor(options: {
  draftAndPublish: boolean;
  companyScoped?: boolean;
}): SystemField[] {
  return SYSTEM_FIELDS.filter(
    ([, json]) =>
      (options.draftAndPublish || !PUBLICATION_FIELDS.has(json)) &&
      (json !== 'companyId' || options.companyScoped === true),
  ).map(([column, json]) => ({ column, json, ...SYSTEM_TYPES[column] }));
}

/** Names a collection may not take: routes under /api/cms and SQL keywords. */
const RESERVED_COLLECTIONS = new Set(['content_types', 'migrations', 'count', 'search', 'bulk_delete']);

/**
 * SQL and PostgreSQL reserved words: refused as attribute and collection names, although every
 * identifier is quoted, so that hand-written SQL against these tables never trips on them.
 */
const RESERVED_WORDS = new Set(
  `all analyse analyze and any array as asc asymmetric authorization between binary both case cast check
  collate collation column concurrently constraint create cross current_catalog current_date current_role
  current_schema current_time current_timestamp current_user default deferrable desc distinct do else end
  except false fetch for foreign freeze from full grant group having ilike in initially inner intersect
  into is isnull join lateral leading left like limit localtime localtimestamp natural not notnull null
  offset on only or order outer overlaps placing primary references returning right select session_user
  similar some symmetric system_user table tablesample then to trailing true union unique user using
  variadic verbose when where window with oid ctid xmin xmax cmin cmax tableoid`.split(/\s+/),
);

export function isReservedWord(name: string): boolean {
  return RESERVED_WORDS.has(name.toLowerCase());
}

/** Why a collection name is refused, or null when it is fine. */
export function collectionNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || !COLLECTION_NAME.test(name)) {
    return 'collectionName must be lowercase letters, digits and _, starting with a letter, at most 40 characters';
  }
  if (RESERVED_COLLECTIONS.has(name) || isReservedWord(name)) return `collectionName "${name}" is reserved`;
  return null;
}

/** Why an attribute name is refused, or null when it is fine. */
export function attributeNameProblem(name: string): string | null {
  if (!ATTRIBUTE_NAME.test(name)) {
    return 'attribute names are letters, digits and _, starting with a lowercase letter, at most 63 characters';
  }
  const column = columnName(name);
  if (SYSTEM_COLUMNS.has(column) || SYSTEM_FIELDS.some(([, json]) => json === name)) {
    return `"${name}" is a system field`;
  }
  if (isReservedWord(name) || isReservedWord(column)) return `"${name}" is a reserved word`;
  return null;
}

/**
 * `firstName` → `first_name`. A snake_case name past PostgreSQL's 63-byte identifiers keeps its first
 * 46 characters and ends with a hash of the whole, so every accepted attribute name has a column and
 * the same name always gets the same one.
 */
export function columnName(attribute: string): string {
  const snake = attribute.replace(/([A-Z])/g, '_$1').toLowerCase();
  return snake.length <= 63 ? snake : `${snake.slice(0, 46)}_${shortHash(snake)}`;
}

export const tableName = (collection: string) => `cms_${collection}`;

/** A join table of a many relation; long names end with a hash so they stay within 63 characters. */
export function joinTableName(collection: string, column: string): string {
  const name = `cms_${collection}__${column}`;
  return name.length <= 63 ? name : `${name.slice(0, 46)}_${shortHash(name)}`;
}

/** Name of an index or constraint of a custom table. */
export function indexName(kind: 'uq' | 'fk' | 'ix', table: string, column: string): string {
  const name = `${table}_${column}_${kind}`;
  return name.length <= 63 ? name : `${name.slice(0, 46)}_${shortHash(name)}`;
}

function shortHash(value: string): string {
  return createHash('sha1').update(value).digest('hex').slice(0, 16);
}
