import { Injectable, Logger } from '@nestjs/common';
import type { Client as PgClient } from 'pg';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { parseDatabaseUrl, withAdminConnection } from '../../database/data-source-factory';
import { quoteIdent } from '../../database/ddl';
import { ClientDatabases } from '../../tenancy/client-databases';
import { ClientRegistry } from '../../tenancy/client-registry';
import { SANDBOX_SCHEMA_LIKE } from '../../tenancy/sandbox-naming';
import { TenantClient } from '../../tenancy/tenant-context';
import { AuditSettings } from '../../audit-trail/audit.settings';
import { DEFAULT_POLICY_KEY } from '../entities/retention-policy.entity';

const BATCH = 20_000;

export interface RetentionResult {
  deleted: number;
  /** Entries removed per schema (`public`, `sandbox_*`). */
  schemas: Record<string, number>;
}

/**
 * Removes audit entries past their policy. It is the only code that deletes audit rows: it works
 * over the platform's administrative connection (the client's login role has no DELETE on
 * audit_logs) and turns on the transaction-local `audit.retention` setting that the append-only
 * trigger checks. Each batch is one transaction that also records what it removed.
 */
@Injectable()
export class AuditRetentionService {
  private readonly logger = new Logger(AuditRetentionService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly settings: AuditSettings,
    private readonly registry: ClientRegistry,
    private readonly databases: ClientDatabases,
  ) {}

  apply(tenant: TenantClient, actor?: { userId: number; username: string | null }): Promise<RetentionResult> {
    return this.asAdmin(tenant, async (pg) => {
      const result: RetentionResult = { deleted: 0, schemas: {} };
      const days = await this.defaultDays(pg);
      for (const schema of await this.schemas(pg)) {
        let removed = 0;
        for (;;) {
          const batch = await this.deleteBatch(pg, schema, days, actor);
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
    const { rows } = await pg.query(
      `SELECT retention_days FROM public.audit_retention_policies WHERE entity_type = $1`,
      [DEFAULT_POLICY_KEY],
    );
    return rows[0]?.retention_days ?? this.settings.AUDIT_RETENTION_DAYS_DEFAULT;
  }

  private async schemas(pg: PgClient): Promise<string[]> {
    const { rows } = await pg.query(
      `SELECT table_schema FROM information_schema.tables
        WHERE table_name = 'audit_logs' AND (table_schema = 'public' OR table_schema LIKE $1)
        ORDER BY table_schema = 'public' DESC, table_schema`,
      [SANDBOX_SCHEMA_LIKE],
    );
    return rows.map((r: { table_schema: string }) => r.table_schema);
  }

  private async deleteBatch(
    pg: PgClient,
    schema: string,
    defaultDays: number,
    actor?: { userId: number; username: string | null },
  ): Promise<number> {
    const table = `${quoteIdent(schema)}.audit_logs`;
    await pg.query('BEGIN');
    try {
      await pg.query(`SELECT set_config('audit.retention', 'on', true)`);
      const { rowCount } = await pg.query(
        `WITH doomed AS (
           SELECT a.id FROM ${table} a
             LEFT JOIN public.audit_retention_policies p ON p.entity_type = a.entity_type
            WHERE a.timestamp < now() - make_interval(days => coalesce(p.retention_days, $1))
            LIMIT $2)
         DELETE FROM ${table} d USING doomed WHERE d.id = doomed.id`,
        [defaultDays, BATCH],
      );
      const deleted = rowCount ?? 0;
      if (deleted) {
        await pg.query(
          `INSERT INTO ${table} (action, entity_type, user_id, username, message, metadata)
           VALUES ('DELETE', 'AuditLog', $1, $2, $3, $4)`,
          [
            actor?.userId ?? null,
            actor ? actor.username : 'system:retention',
            `Retention removed ${deleted} audit entries past their policy`,
            JSON.stringify({ event: 'AUDIT_RETENTION', schema, deleted, defaultRetentionDays: defaultDays }),
          ],
        );
      }
      await pg.query('COMMIT');
      return deleted;
    } catch (err) {
      await pg.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  private asAdmin<T>(tenant: TenantClient, fn: (pg: PgClient) => Promise<T>): Promise<T> {
    if (tenant.isMaster) return withAdminConnection(parseDatabaseUrl(this.config.DATABASE_URL), fn);
    const client = this.registry.findByIdentifier(tenant.identifier);
    if (!client) throw AppError.clientNotFound();
    return this.databases.asAdmin(client, fn);
  }
}
