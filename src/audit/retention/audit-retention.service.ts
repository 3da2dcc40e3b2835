import { Injectable, Logger } from '@nestjs/common';
import type { Client as PgClient } from 'pg';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { parseDatabaseUrl, withAdminConnection } from '../../database/data-source-factory';
import { ClientDatabases } from '../../tenancy/client-databases';
import { ClientRegistry } from '../../tenancy/client-registry';
import { TenantClient } from '../../tenancy/tenant-context';
import { AuditSettings } from '../../audit-trail/audit.settings';
import { AuditRetentionRepository, RetentionActor } from './audit-retention.repository';

const BATCH = 20_000;

export interface RetentionResult {
  deleted: number;
  /** Entries removed per schema (`public`, `sandbox_*`). */
  schemas: Record<string, number>;
}

/**
 * Removes audit entries past their policy, schema by schema and batch by batch, over the platform's
 * administrative connection (the client's login role has no DELETE on audit_logs). Each batch is one
 * transaction that also records what it removed (AuditRetentionRepository.deleteBatch).
 */
@Injectable()
export class AuditRetentionService {
  private readonly logger = new Logger(AuditRetentionService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly settings: AuditSettings,
    private readonly registry: ClientRegistry,
    private readonly databases: ClientDatabases,
    private readonly retention: AuditRetentionRepository,
  ) {}

  apply(tenant: TenantClient, actor?: RetentionActor): Promise<RetentionResult> {
    return this.asAdmin(tenant, async (pg) => {
      const result: RetentionResult = { deleted: 0, schemas: {} };
      const days = await this.defaultDays(pg);
      for (const schema of await this.retention.schemas(pg)) {
        let removed = 0;
        for (;;) {
          const batch = await this.retention.deleteBatch(pg, schema, days, BATCH, actor);
          removed += batch;
          if (batch < BATCH) break;
        }
        result.schemas[schema] = removed;
        result.deleted += removed;
      }
      if (result.deleted) this.logger.log(`${tenant.identifier}: removed ${result.deleted} audit entries`);
      return result;
    });
  }

  /** The tenant's default: its `*` policy, else AUDIT_RETENTION_DAYS_DEFAULT. */
  private async defaultDays(pg: PgClient): Promise<number> {
    return (await this.retention.defaultPolicyDays(pg)) ?? this.settings.AUDIT_RETENTION_DAYS_DEFAULT;
  }

  private asAdmin<T>(tenant: TenantClient, fn: (pg: PgClient) => Promise<T>): Promise<T> {
    if (tenant.isMaster) return withAdminConnection(parseDatabaseUrl(this.config.DATABASE_URL), fn);
    const client = this.registry.findByIdentifier(tenant.identifier);
    if (!client) throw AppError.clientNotFound();
    return this.databases.asAdmin(client, fn);
  }
}
