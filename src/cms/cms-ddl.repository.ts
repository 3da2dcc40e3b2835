import { Injectable } from '@nestjs/common';
import { quoteIdent } from '../database/identifiers';
import { SchemaDdl } from '../database/schema-ddl.repository';
import { SqlExample, SqlNotRun } from '../database/sql-example';
import { TenantDatabase } from '../tenancy/tenant-database';
import { AppError } from '../common/errors/app-error';
import { isCompanyScoped } from './cms-company-scope';
import { indexName } from './cms-names';
import { CompiledField, CompiledType, ContentTypeDefinition } from './content-type.types';

/**
 * DDL of custom tables, generated from compiled definitions. Every identifier went through the
 * name rules of cms-names and is quoted by quoteIdent; column types come from a fixed mapping.
 * Runs inside runSchemaDdl (one transaction under the schema's advisory lock); made for one such
 * transaction by `CmsDdlRepository.on`, which also holds the statements of the definitions table.
 */
export class CmsDdl {
  /** `role`: the client's login role, granted row rights on every table created (null: none needed). */
  constructor(
    private readonly ddl: SchemaDdl,
    private readonly role: string | null,
  ) {}

  /** Definitions of the schema the DDL transaction is bound to (rows locked when `lock`). */
  async readDefinitions(lock = false): Promise<Map<string, ContentTypeDefinition>> {
    const rows = await this.ddl.query<{ definition: ContentTypeDefinition }>(
      `SELECT definition FROM ${this.ddl.table('content_type_definitions')} ORDER BY collection_name${lock ? ' FOR UPDATE' : ''}`,
    );
    return new Map(rows.map((r) => [r.definition.collectionName, r.definition]));
  }

  /** Production's definitions, read from a sandbox schema's DDL transaction. */
  async productionDefinitions(): Promise<ContentTypeDefinition[]> {
    const rows = await this.ddl.query<{ definition: ContentTypeDefinition }>(
      'SELECT definition FROM public.content_type_definitions ORDER BY collection_name',
    );
    return rows.map((r) => r.definition);
  }

  async insertDefinition(definition: ContentTypeDefinition): Promise<void> {
    await this.ddl.query(
      `INSERT INTO content_type_definitions (collection_name, definition) VALUES ($1, $2)`,
      [definition.collectionName, JSON.stringify(definition)],
    );
  }

  async updateDefinition(definition: ContentTypeDefinition): Promise<void> {
    await this.ddl.query(
      `UPDATE content_type_definitions SET definition = $2, updated_at = now() WHERE collection_name = $1`,
      [definition.collectionName, JSON.stringify(definition)],
    );
  }

  async deleteDefinition(collectionName: string): Promise<void> {
    await this.ddl.query(`DELETE FROM content_type_definitions WHERE collection_name = $1`, [collectionName]);
  }

  /** Whether the type's table holds any record. */
  async hasRecords(type: CompiledType): Promise<boolean> {
    const [{ filled }] = await this.ddl.query<{ filled: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${this.ddl.table(type.table)}) AS filled`,
    );
    return filled;
  }

  async companyExists(id: number): Promise<boolean> {
    const found = await this.ddl.query(`SELECT 1 FROM "public"."companies" WHERE id = $1`, [id]);
    return found.length > 0;
  }

  /** Every column of the schema's custom tables, with its type. */
  tableColumns(): Promise<{ table_name: string; column_name: string; type: string }[]> {
    return this.ddl.query<{ table_name: string; column_name: string; type: string }>(
      `SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname LIKE 'cms\\_%' AND a.attnum > 0 AND NOT a.attisdropped`,
      [this.ddl.schema],
    );
  }

  /** Runs `work` inside a savepoint: rolled back to it when `work` throws (and the error thrown on). */
  async inSavepoint(work: () => Promise<void>): Promise<void> {
    await this.ddl.query('SAVEPOINT cms_sync');
    try {
      await work();
      await this.ddl.query('RELEASE SAVEPOINT cms_sync');
    } catch (err) {
      await this.ddl.query('ROLLBACK TO SAVEPOINT cms_sync');
      throw err;
    }
  }

  /** The type's table with its system columns and, unless `withFields` is false, its fields. */
  async createType(type: CompiledType, withFields = true): Promise<void> {
    await this.ddl.createTable(type.table, [
      { name: 'id', type: 'bigserial', primaryKey: true },
      { name: 'created_at', type: 'timestamptz', nullable: false },
      { name: 'updated_at', type: 'timestamptz', nullable: false },
      { name: 'created_by_id', type: 'integer' },
      { name: 'updated_by_id', type: 'integer' },
      { name: 'published_at', type: 'timestamptz' },
      { name: 'published_by_id', type: 'integer' },
      { name: 'publication_status', type: 'varchar(20)', nullable: false },
    ]);
    const table = this.ddl.table(type.table);
    await this.ddl.query(`ALTER TABLE ${table} ALTER COLUMN "created_at" SET DEFAULT now(),
      ALTER COLUMN "updated_at" SET DEFAULT now(), ALTER COLUMN "publication_status" SET DEFAULT 'DRAFT'`);
    await this.grant(type.table, true);
    if (isCompanyScoped(type)) await this.addCompanyColumn(type);
    if (withFields) for (const field of type.fields.values()) await this.addField(type, field);
  }

  /**
   * The company column of a company-scoped type: required, a foreign key to the client's
   * companies, indexed with id. `assign` (a checked company id) fills the rows the table holds.
   */
  async addCompanyColumn(type: CompiledType, assign?: number): Promise<void> {
    if (assign !== undefined && !(Number.isSafeInteger(assign) && assign > 0))
      throw new Error('Bad company id');
    const table = this.ddl.table(type.table);
    // A constant default fills existing rows as a catalogue change; it is dropped at once.
    const fill = assign === undefined ? '' : ` DEFAULT ${assign}`;
    await this.ddl.query(`ALTER TABLE ${table} ADD COLUMN "company_id" integer NOT NULL${fill}`);
    if (fill) await this.ddl.query(`ALTER TABLE ${table} ALTER COLUMN "company_id" DROP DEFAULT`);
    await this.ddl.query(
      `ALTER TABLE ${table} ADD CONSTRAINT ${quoteIdent(indexName('fk', type.table, 'company_id'))}
        FOREIGN KEY ("company_id") REFERENCES "public"."companies" ("id")`,
    );
    await this.ddl.query(
      `CREATE INDEX ${quoteIdent(indexName('ix', type.table, 'company_id'))} ON ${table} ("company_id", "id")`,
    );
  }

  /** Drops the company column (its index and foreign key go with it). */
  async dropCompanyColumn(type: CompiledType): Promise<void> {
    await this.ddl.dropColumn(type.table, 'company_id');
  }

  /** Drops a type's join tables, then its table (and data). */
  async dropType(type: CompiledType): Promise<void> {
    for (const field of type.fields.values()) if (field.joinTable) await this.ddl.dropTable(field.joinTable);
    await this.ddl.dropTable(type.table);
  }

  /** The column (with its unique index and foreign key) or join table of one field. */
  async addField(type: CompiledType, field: CompiledField): Promise<void> {
    if (field.joinTable) return this.createJoinTable(type, field);
    await this.ddl.addColumn(type.table, { name: field.column, type: field.sqlType! });
    await this.addConstraints(type, field);
  }

  async dropField(type: CompiledType, field: CompiledField): Promise<void> {
    if (field.joinTable) await this.ddl.dropTable(field.joinTable);
    else await this.ddl.dropColumn(type.table, field.column);
  }

  /**
   * Moves a kept field from its old to its new definition: a column changes type in place (rows
   * kept; 409 when a value cannot be converted); a move between column and join table, or a join
   * table whose target or kind changes, starts that field afresh.
   */
  async changeField(type: CompiledType, before: CompiledField, after: CompiledField): Promise<void> {
    // Only an enumeration that loses values needs the rows read; a kept or wider one is a catalogue change.
    const narrowed = (before.def.enum ?? []).some((value) => !(after.def.enum ?? []).includes(value));
    if (
      after.def.type === 'enumeration' &&
      !before.joinTable &&
      (before.def.type !== 'enumeration' || narrowed)
    ) {
      await this.ensureInEnum(type, before, after);
    }
    const same =
      before.sqlType === after.sqlType &&
      before.joinTable === after.joinTable &&
      before.targetTable === after.targetTable &&
      before.def.relation === after.def.relation &&
      !!before.def.unique === !!after.def.unique;
    if (same) return;
    if (before.joinTable || after.joinTable) {
      await this.dropField(type, before);
      await this.addField(type, after);
      return;
    }
    const table = this.ddl.table(type.table);
    const column = quoteIdent(after.column);
    await this.ddl.query(
      `ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${quoteIdent(indexName('fk', type.table, after.column))}`,
    );
    await this.ddl.query(
      `DROP INDEX IF EXISTS ${quoteIdent(this.ddl.schema)}.${quoteIdent(indexName('uq', type.table, after.column))}`,
    );
    if (before.sqlType !== after.sqlType) {
      await this.guard(after.name, () =>
        this.ddl.query(
          `ALTER TABLE ${table} ALTER COLUMN ${column} TYPE ${after.sqlType} USING ${castOf(before, after)}`,
        ),
      );
    }
    await this.addConstraints(type, after);
  }

  /** Rows holding a value outside the new enumeration make the change 409. */
  private async ensureInEnum(type: CompiledType, before: CompiledField, after: CompiledField) {
    const outside = await this.ddl.query(
      `SELECT 1 FROM ${this.ddl.table(type.table)} WHERE ${quoteIdent(before.column)} IS NOT NULL
         AND NOT (${quoteIdent(before.column)}::text = ANY($1::text[])) LIMIT 1`,
      [after.def.enum ?? []],
    );
    if (outside.length) throw AppError.conflict(`The existing rows cannot take the change of ${after.name}`);
  }

  private async addConstraints(type: CompiledType, field: CompiledField) {
    const table = this.ddl.table(type.table);
    const column = quoteIdent(field.column);
    if (field.def.unique || field.def.relation === 'oneToOne') {
      const index = quoteIdent(indexName('uq', type.table, field.column));
      // The id rides along so that a page by number finds its ids by an index-only walk.
      await this.guard(field.name, () =>
        this.ddl.query(`CREATE UNIQUE INDEX ${index} ON ${table} (${column}) INCLUDE ("id")`),
      );
    }
    if (field.targetTable) {
      const fk = quoteIdent(indexName('fk', type.table, field.column));
      await this.guard(field.name, () =>
        this.ddl.query(
          `ALTER TABLE ${table} ADD CONSTRAINT ${fk} FOREIGN KEY (${column}) REFERENCES ${this.ddl.table(field.targetTable!)} ("id") ON DELETE SET NULL`,
        ),
      );
    }
  }

  private async createJoinTable(type: CompiledType, field: CompiledField) {
    const join = field.joinTable!;
    await this.ddl.createTable(join, [
      { name: 'source_id', type: 'bigint', nullable: false },
      { name: 'target_id', type: 'bigint', nullable: false },
    ]);
    const table = this.ddl.table(join);
    await this.ddl.query(
      `ALTER TABLE ${table} ADD PRIMARY KEY ("source_id", "target_id"),
        ADD FOREIGN KEY ("source_id") REFERENCES ${this.ddl.table(type.table)} ("id") ON DELETE CASCADE,
        ADD FOREIGN KEY ("target_id") REFERENCES ${this.ddl.table(field.targetTable!)} ("id") ON DELETE CASCADE`,
    );
    await this.ddl.query(
      `CREATE INDEX ${quoteIdent(indexName('ix', join, 'target_id'))} ON ${table} ("target_id")`,
    );
    // oneToMany: a target record belongs to one source at most.
    if (field.def.relation === 'oneToMany') {
      await this.ddl.query(
        `CREATE UNIQUE INDEX ${quoteIdent(indexName('uq', join, 'target_id'))} ON ${table} ("target_id")`,
      );
    }
    await this.grant(join, false);
  }

  private async grant(table: string, withSequence: boolean) {
    if (!this.role) return;
    const role = quoteIdent(this.role);
    await this.ddl.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${this.ddl.table(table)} TO ${role}`);
    if (withSequence) {
      await this.ddl.query(`GRANT USAGE, SELECT ON SEQUENCE ${this.ddl.table(`${table}_id_seq`)} TO ${role}`);
    }
  }

  /** Runs a statement that existing rows may refuse; their refusal is 409 naming the field. */
  private async guard(field: string, work: () => Promise<unknown>) {
    try {
      await work();
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (code.startsWith('22') || code.startsWith('23') || code === '42804' || code === '42846') {
        throw AppError.conflict(`The existing rows cannot take the change of ${field}`);
      }
      throw err;
    }
  }
}

/** The USING expression of a column type change. */
function castOf(before: CompiledField, after: CompiledField): string {
  const column = quoteIdent(before.column);
  if (after.sqlType === 'jsonb') return `to_jsonb(${column})`;
  if (before.sqlType === 'jsonb') return `(${column} #>> '{}')::${after.sqlType}`;
  return `${column}::${after.sqlType}`;
}

/** The statements of custom tables' definitions and DDL (`CmsDdl`), and the definitions the cache loads. */
@Injectable()
export class CmsDdlRepository {
  constructor(private readonly db: TenantDatabase) {}

  /** The DDL statements of one schema DDL transaction; `role` is granted rows rights on new tables. */
  @SqlNotRun('DDL: runs inside a schema DDL transaction under its advisory lock (SchemaDdl)')
  on(ddl: SchemaDdl, role: string | null): CmsDdl {
    return new CmsDdl(ddl, role);
  }

  /** Every definition of the current schema. */
  @SqlExample([])
  async definitions(): Promise<ContentTypeDefinition[]> {
    const rows = await this.db.query<{ definition: ContentTypeDefinition }>(
      'SELECT definition FROM content_type_definitions ORDER BY collection_name',
    );
    return rows.map((r) => r.definition);
  }
}
