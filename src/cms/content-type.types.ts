import type { AttributeDefinition, RecordField, RecordType } from '../records/engine/record-type';

export { FIELD_TYPES, RELATION_KINDS } from '../records/engine/record-type';
export type { AttributeDefinition, FieldType, RelationKind } from '../records/engine/record-type';

/** A content type definition as stored and answered (collectionName without the `cms_` prefix). */
export interface ContentTypeDefinition {
  kind: 'collectionType';
  collectionName: string;
  info: { singularName: string; pluralName: string; displayName: string; description?: string };
  /** companyScoped: records carry a company (absent on types stored before the option: client scope). */
  options: { draftAndPublish: boolean; companyScoped?: boolean };
  attributes: Record<string, AttributeDefinition>;
}

/** How an attribute is stored: the engine's field. */
export type CompiledField = RecordField;

/** A content type ready for the record engine: its definition, table and fields, by attribute name. */
export interface CompiledType extends RecordType {
  definition: ContentTypeDefinition;
  collectionName: string;
}

/** A record of a custom table as answered: system fields and non-private attributes by JSON name. */
export type ContentRecord = Record<string, unknown> & { id: number };
