import { RecordField, RecordType } from './record-type';

const field = (
  name: string,
  column: string,
  type: RecordField['def']['type'],
  sqlType: string,
): RecordField => ({
  name,
  column,
  def: { type },
  sqlType,
  joinTable: null,
  targetTable: null,
  regex: null,
});

/**
 * The record type the SQL snapshot examples of the engine's repository read: the `units` table,
 * which every client schema has.
 */
export const EXAMPLE_TYPE: RecordType = {
  name: 'units',
  table: 'units',
  system: [{ column: 'id', json: 'id', type: 'integer', sql: 'integer' }],
  fields: new Map(
    [
      field('name', 'name', 'string', 'varchar'),
      field('status', 'status', 'string', 'varchar'),
      field('capacityMw', 'capacity_mw', 'decimal', 'numeric'),
      field('companyId', 'company_id', 'integer', 'integer'),
      field('createdAt', 'created_at', 'datetime', 'timestamptz'),
    ].map((f) => [f.name, f]),
  ),
  companyScoped: true,
  draftAndPublish: false,
  nullsFirstWhenDescending: true,
};
