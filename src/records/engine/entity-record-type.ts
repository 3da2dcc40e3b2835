import { Type } from '@nestjs/common';
import { getMetadataArgsStorage } from 'typeorm';
import { FieldType, RecordField, RecordType } from './record-type';

/** Engine field type and SQL type of each column type the built-in entities use. */
const COLUMN_TYPES: Record<string, [FieldType, string]> = {
  varchar: ['string', 'varchar'],
  text: ['text', 'text'],
  int: ['integer', 'integer'],
  integer: ['integer', 'integer'],
  numeric: ['decimal', 'numeric'],
  timestamptz: ['datetime', 'timestamptz'],
  boolean: ['boolean', 'boolean'],
  date: ['date', 'date'],
  jsonb: ['json', 'jsonb'],
};
const DESIGN_TYPES = new Map<unknown, string>([
  [String, 'varchar'],
  [Number, 'integer'],
  [Boolean, 'boolean'],
  [Date, 'timestamptz'],
]);

const snake = (property: string) => property.replace(/([A-Z])/g, '_$1').toLowerCase();

/** How a built-in type's fields differ from what its entity's columns say. */
export interface BuiltInFields<E> {
  /** The values of enumeration fields (`status: OUTAGE_STATUSES`): filtered values are checked against them. */
  enums?: Partial<Record<keyof E & string, readonly string[]>>;
}

/**
 * A built-in record type for the engine, its fields read from the entity's columns (JSON name =
 * property, column = snake_case): `id` is its system field; columns never shown (`select: false`)
 * are no fields; a `@DeleteDateColumn` makes the type soft-deleted. Built-in types are company-scoped
 * and keep PostgreSQL's order for rows without a sort value (first when descending).
 */
export function builtInRecordType<E>(entity: Type<E>, name: string, o: BuiltInFields<E> = {}): RecordType {
  const storage = getMetadataArgsStorage();
  const table = storage.tables.find((t) => t.target === entity)?.name;
  if (!table) throw new Error(`${entity.name} is no entity`);
  const fields = new Map<string, RecordField>();
  let softDeleted = false;
  for (const column of storage.filterColumns(entity)) {
    const property = column.propertyName;
    if (column.mode === 'deleteDate') softDeleted = true;
    if (property === 'id' || column.options.select === false) continue;
    // Without a type in the decorator, TypeORM keeps the property's design type (String, Number, ...).
    const given: unknown = column.options.type;
    const design: unknown = Reflect.getMetadata('design:type', entity.prototype as object, property);
    const columnType =
      typeof given === 'string' ? given : (DESIGN_TYPES.get(given) ?? DESIGN_TYPES.get(design) ?? 'varchar');
    const [fieldType, sqlType] = COLUMN_TYPES[columnType] ?? ['string', columnType];
    const values = (o.enums as Record<string, readonly string[]> | undefined)?.[property];
    fields.set(property, {
      name: property,
      column: snake(property),
      def: values ? { type: 'enumeration', enum: [...values] } : { type: fieldType },
      sqlType,
      joinTable: null,
      targetTable: null,
      regex: null,
    });
  }
  return {
    name,
    table,
    system: [{ column: 'id', json: 'id', type: 'integer', sql: 'integer' }],
    fields,
    companyScoped: true,
    draftAndPublish: false,
    softDeleted,
    nullsFirstWhenDescending: true,
  };
}
