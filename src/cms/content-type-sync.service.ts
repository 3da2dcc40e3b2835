import { Injectable } from '@nestjs/common';
import { SchemaDdl } from '../database/schema-ddl.repository';
import { ClientDatabases } from '../tenancy/client-databases';
import { Client } from '../tenancy/entities/client.entity';
import { CmsDdl, CmsDdlRepository } from './cms-ddl.repository';
import { CmsDdlRunner } from './cms-ddl-runner';
import { isCompanyScoped } from './cms-company-scope';
import { compile } from './cms-definition';
import { SYSTEM_COLUMNS } from './cms-names';
import { ContentTypeCache } from './content-type-cache';
import { CompiledType } from './content-type.types';

export interface SyncReport {
  success: boolean;
  successes: string[];
  errors: string[];
  warnings: string[];
  skipped: string[];
}

/** How PostgreSQL's format_type() writes each column type the DDL generator uses. */
function formatted(sqlType: string): string {
  if (sqlType.startsWith('varchar')) return sqlType.replace('varchar', 'character varying');
  if (sqlType === 'time') return 'time without time zone';
  if (sqlType === 'timestamptz') return 'timestamp with time zone';
  return sqlType;
}

/**
 * Brings the tables of the current schema in step with its definitions (missing tables, columns
 * and join tables are created; nothing is dropped) and copies the types of production into new
 * sandbox schemas.
 */
@Injectable()
export class ContentTypeSync {
  constructor(
    private readonly databases: ClientDatabases,
    private readonly runner: CmsDdlRunner,
    private readonly cache: ContentTypeCache,
    private readonly statements: CmsDdlRepository,
  ) {}

  async sync(): Promise<SyncReport> {
    const report: SyncReport = { success: true, successes: [], errors: [], warnings: [], skipped: [] };
    try {
      await this.runner.run((ddl, cms) => reconcile(ddl, cms, report));
    } finally {
      await this.cache.changed();
    }
    report.success = report.errors.length === 0;
    return report;
  }

  /**
   * Gives a new sandbox schema the content types of production: their tables always, their
   * definitions too unless `copyRows` (then the sandbox copy of every table brings rows and
   * definitions alike).
   */
  async cloneIntoSandbox(client: Client | null, schema: string, copyRows: boolean): Promise<void> {
    await this.databases.schemaDdl(client, schema, async (ddl) => {
      const cms = this.statements.on(ddl, client?.databaseUsername ?? null);
      const definitions = await cms.productionDefinitions();
      const types = definitions.map((definition) => compile(definition));
      for (const type of types) await cms.createType(type, false);
      for (const type of types) for (const field of type.fields.values()) await cms.addField(type, field);
      if (copyRows) return;
      for (const definition of definitions) await cms.insertDefinition(definition);
    });
  }
}

async function reconcile(ddl: SchemaDdl, cms: CmsDdl, report: SyncReport): Promise<void> {
  const types = [...(await cms.readDefinitions()).values()].map(compile);
  const columns = await cms.tableColumns();
  const tables = new Map<string, Map<string, string>>();
  for (const c of columns) {
    if (!tables.has(c.table_name)) tables.set(c.table_name, new Map());
    tables.get(c.table_name)!.set(c.column_name, c.type);
  }
  const known = new Set<string>();
  // Missing tables first (bare), so that foreign keys between them find their targets.
  const missing = types.filter((t) => !tables.has(t.table));
  for (const type of missing) {
    await attempt(cms, report, type, async () => {
      await cms.createType(type, false);
      report.successes.push(`${type.table}: table created`);
    });
  }
  for (const type of types) {
    known.add(type.table);
    const existing = tables.get(type.table) ?? new Map<string, string>();
    const before = report.successes.length + report.warnings.length + report.errors.length;
    if (isCompanyScoped(type) && !missing.includes(type) && !existing.has('company_id')) {
      await attempt(cms, report, type, async () => {
        await cms.addCompanyColumn(type);
        report.successes.push(`${type.table}.company_id: column created`);
      });
    }
    for (const field of type.fields.values()) {
      if (field.joinTable) {
        known.add(field.joinTable);
        if (tables.has(field.joinTable)) continue;
      } else if (existing.has(field.column)) {
        const actual = existing.get(field.column)!;
        if (actual !== formatted(field.sqlType!)) {
          report.warnings.push(
            `${type.table}.${field.column}: column is ${actual}, the definition says ${formatted(field.sqlType!)}`,
          );
        }
        continue;
      }
      await attempt(cms, report, type, async () => {
        await cms.addField(type, field);
        report.successes.push(
          `${type.table}.${field.joinTable ?? field.column}: ${field.joinTable ? 'join table' : 'column'} created`,
        );
      });
    }
    const named = new Set([...type.fields.values()].map((f) => f.column));
    for (const column of existing.keys()) {
      if (!SYSTEM_COLUMNS.has(column) && !named.has(column)) {
        report.warnings.push(`${type.table}.${column}: column is not named by the definition (kept)`);
      }
    }
    const after = report.successes.length + report.warnings.length + report.errors.length;
    if (after === before && !missing.includes(type)) report.skipped.push(type.collectionName);
  }
  for (const table of tables.keys()) {
    if (!known.has(table)) report.warnings.push(`${table}: table has no content type definition (kept)`);
  }
}

/** One step of the sync inside a savepoint: a failure is reported and the rest goes on. */
async function attempt(cms: CmsDdl, report: SyncReport, type: CompiledType, work: () => Promise<void>) {
  try {
    await cms.inSavepoint(work);
  } catch (err) {
    report.errors.push(`${type.table}: ${(err as Error).message}`);
  }
}
