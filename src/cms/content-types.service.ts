import { Injectable } from '@nestjs/common';
import { AuditWriter, diffChanges } from '../audit-trail/audit-writer';
import { AppError } from '../common/errors/app-error';
import { SchemaDdl } from '../database/schema-ddl.repository';
import { TenantDatabase } from '../tenancy/tenant-database';
import { Principal } from '../access/principal';
import { CmsDdl } from './cms-ddl.repository';
import { CmsDdlRunner } from './cms-ddl-runner';
import { changeCompanyScope } from './cms-company-scope';
import { assertCms, canCms } from './cms-permissions';
import { compile, validateDefinition } from './cms-definition';
import { collectionNameProblem } from './cms-names';
import { ContentTypeCache } from './content-type-cache';
import { ContentTypeDefinition } from './content-type.types';

/** Definitions of custom tables: each change alters the real tables in the same transaction. */
@Injectable()
export class ContentTypesService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly cache: ContentTypeCache,
    private readonly runner: CmsDdlRunner,
    private readonly audit: AuditWriter,
  ) {}

  /** The types whose records the caller may read. */
  async list(principal: Principal): Promise<{ data: ContentTypeDefinition[] }> {
    return { data: (await this.readable(principal)).map((t) => t.definition) };
  }

  /** One type, for a caller who may read its records (403 otherwise, whether it exists or not). */
  async get(principal: Principal, collectionName: string): Promise<{ data: ContentTypeDefinition }> {
    assertCms(principal, collectionName, 'read');
    return { data: (await this.cache.get(collectionName)).definition };
  }

  async count(principal: Principal): Promise<{ data: { count: number } }> {
    return { data: { count: (await this.readable(principal)).length } };
  }

  private async readable(principal: Principal) {
    return [...(await this.cache.all()).values()].filter((t) => canCms(principal, t.collectionName, 'read'));
  }

  async create(body: unknown) {
    // Checked once before any SQL, again under the lock against the schema's current types.
    validateDefinition(body, new Set((await this.cache.all()).keys()));
    const definition = await this.withDdl(async (_ddl, cms) => {
      const existing = await cms.readDefinitions();
      const def = validateDefinition(body, new Set(existing.keys()));
      if (existing.has(def.collectionName)) {
        throw AppError.conflict(`A content type named "${def.collectionName}" exists`);
      }
      await cms.createType(compile(def));
      await cms.insertDefinition(def);
      return def;
    });
    await this.committed(
      'CREATE',
      definition.collectionName,
      `Content type "${definition.collectionName}" created`,
      null,
      definition,
    );
    return {
      success: true,
      message: `Content type "${definition.collectionName}" created`,
      collectionName: definition.collectionName,
      schema: definition,
    };
  }

  /**
   * Replaces a definition: columns added, dropped and changed in one transaction, rows kept. A
   * definition without `options.companyScoped` keeps the stored scope; a change of scope follows
   * `changeCompanyScope` (`assignCompanyId`: the company existing records go to).
   */
  async replace(principal: Principal, collectionName: string, body: unknown, assignCompanyId?: number) {
    await this.cache.get(collectionName);
    const named = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    if (named.collectionName !== undefined && named.collectionName !== collectionName) {
      throw AppError.validation([
        { field: 'collectionName', message: 'must be the collection name of the path' },
      ]);
    }
    const input = { ...named, collectionName };
    validateDefinition(input, new Set((await this.cache.all()).keys()));
    const { before, after } = await this.withDdl(async (_ddl, cms) => {
      const existing = await cms.readDefinitions(true);
      const old = existing.get(collectionName);
      if (!old) throw AppError.notFound('Content type');
      const def = validateDefinition(input, new Set(existing.keys()), old.options.companyScoped === true);
      const [from, to] = [compile(old), compile(def)];
      await changeCompanyScope(cms, from, to, principal, assignCompanyId);
      for (const [name, field] of from.fields) if (!to.fields.has(name)) await cms.dropField(from, field);
      for (const [name, field] of to.fields) {
        const previous = from.fields.get(name);
        if (!previous) await cms.addField(to, field);
        else await cms.changeField(to, previous, field);
      }
      await cms.updateDefinition(def);
      return { before: old, after: def };
    });
    await this.committed('UPDATE', collectionName, `Content type "${collectionName}" updated`, before, after);
    return { data: after };
  }

  async remove(collectionName: string): Promise<void> {
    await this.cache.get(collectionName);
    const removed = await this.withDdl(async (_ddl, cms) => {
      const existing = await cms.readDefinitions(true);
      const def = existing.get(collectionName);
      if (!def) throw AppError.notFound('Content type');
      const referrers = [...existing.values()].filter(
        (other) =>
          other.collectionName !== collectionName &&
          Object.values(other.attributes).some((a) => a.type === 'relation' && a.target === collectionName),
      );
      if (referrers.length) {
        throw AppError.conflict(
          `Content type "${collectionName}" is the target of relations of ${referrers.map((r) => r.collectionName).join(', ')}`,
        );
      }
      await cms.dropType(compile(def));
      await cms.deleteDefinition(collectionName);
      return def;
    });
    await this.committed('DELETE', collectionName, `Content type "${collectionName}" deleted`, removed, null);
  }

  /** The DDL transaction of the current schema; a failed one drops the cache everywhere too. */
  private async withDdl<T>(work: (ddl: SchemaDdl, cms: CmsDdl) => Promise<T>): Promise<T> {
    try {
      return await this.runner.run(work);
    } catch (err) {
      await this.cache.changed();
      throw err;
    }
  }

  /** After a committed change: the cache dropped everywhere and the audit entry, side by side. */
  private async committed(
    action: 'CREATE' | 'UPDATE' | 'DELETE',
    collectionName: string,
    message: string,
    before: ContentTypeDefinition | null,
    after: ContentTypeDefinition | null,
  ) {
    await Promise.all([this.cache.changed(), this.audited(action, collectionName, message, before, after)]);
  }

  private audited(
    action: 'CREATE' | 'UPDATE' | 'DELETE',
    collectionName: string,
    message: string,
    before: ContentTypeDefinition | null,
    after: ContentTypeDefinition | null,
  ) {
    // One statement of its own (no transaction around it in production): the change has committed.
    return this.db.run((m) =>
      this.audit.record(m, {
        action,
        entityType: 'ContentType',
        entityId: null,
        message,
        changes: diffChanges(before, after, []),
        metadata: { collectionName },
      }),
    );
  }
}

export { collectionNameProblem };
