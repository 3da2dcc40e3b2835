import { Injectable } from '@nestjs/common';
import type { Client as PgClient } from 'pg';
import { quoteIdent } from '../../database/identifiers';
import { SqlNotRun } from '../../database/sql-example';
import { SANDBOX_SCHEMA_LIKE } from '../../tenancy/sandbox-naming';
import { DEFAULT_POLICY_KEY } from '../entities/retention-policy.entity';

const ADMIN_ONLY = 'runs over the administrative connection of a client database (no tenant manager)';

/** Who ran the retention (absent: the schedule). */
export interface RetentionActor {
  userId: number;
  username: string | null;
}

/**
 * The retention's statements over the platform's administrative connection: the only ones that
 * delete audit rows (the client's login role has no DELETE on audit_logs).
 */
@Injectable()
export class AuditRetentionRepository {
  /** The tenant's `*` policy, if it has one. */
  @SqlNotRun(ADMIN_ONLY)
  async defaultPolicyDays(pg: PgClient): Promise<number | undefined> {
    const { rows } = await pg.query<{ retention_days: number }>(
      `SELECT retention_days FROM public.audit_retention_policies WHERE entity_type = $1`,
      [DEFAULT_POLICY_KEY],
    );
    return rows[0]?.retention_days;
  }

  /** `public` first, then every sandbox schema with an audit trail. */
  @SqlNotRun(ADMIN_ONLY)
  async schemas(pg: PgClient): Promise<string[]> {
    const { rows } = await pg.query<{ table_schema: string }>(
      `SELECT table_schema FROM information_schema.tables
        WHERE table_name = 'audit_logs' AND (table_schema = 'public' OR table_schema LIKE $1)
        ORDER BY table_schema = 'public' DESC, table_schema`,
      [SANDBOX_SCHEMA_LIKE],
    );
    return rows.map((r) => r.table_schema);
  }

  /**
   * Deletes up to `batch` entries of `schema` past their policy and records what it removed, in one
   * transaction with the transaction-local `audit.retention` setting the append-only trigger checks.
   */
  @SqlNotRun(ADMIN_ONLY)
  async deleteBatch(
    pg: PgClient,
    schema: string,
    defaultDays: number,
    batch: number,
    actor?: RetentionActor,
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
        [defaultDays, batch],
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
}
