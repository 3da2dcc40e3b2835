import { Injectable } from '@nestjs/common';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AuditSettings } from '../../audit-trail/audit.settings';
import { DEFAULT_POLICY_KEY } from '../entities/retention-policy.entity';

/** Label of entries without an entity type (logins, recorded errors): they follow the default policy. */
export const NO_ENTITY_TYPE = '(none)';

interface TypeRow {
  entity_type: string | null;
  retention_days: number;
  has_policy: boolean;
  oldest: Date | null;
  total: string;
  eligible: string;
}

interface StorageRow {
  audit_logs: string;
  login_history: string;
  total: string;
  audit_bytes: string;
}

/** Retention per entity type, storage sizes from PostgreSQL, status and recommendations. */
@Injectable()
export class RetentionReportService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly settings: AuditSettings,
  ) {}

  async report() {
    const [types, policies, [storage]] = await this.db.run((m) =>
      Promise.all([
        m.query<TypeRow[]>(
          `WITH d AS (SELECT coalesce((SELECT retention_days FROM audit_retention_policies WHERE entity_type = $2), $1)::int AS days)
           SELECT a.entity_type, coalesce(p.retention_days, d.days) AS retention_days, p.entity_type IS NOT NULL AS has_policy,
                  min(a.timestamp) AS oldest, count(*) AS total,
                  count(*) FILTER (WHERE a.timestamp < now() - make_interval(days => coalesce(p.retention_days, d.days))) AS eligible
             FROM audit_logs a CROSS JOIN d LEFT JOIN audit_retention_policies p ON p.entity_type = a.entity_type
            GROUP BY a.entity_type, p.entity_type, p.retention_days, d.days
            ORDER BY a.entity_type NULLS FIRST`,
          [this.settings.AUDIT_RETENTION_DAYS_DEFAULT, DEFAULT_POLICY_KEY],
        ),
        m.query<{ entity_type: string; retention_days: number }[]>(
          `SELECT entity_type, retention_days FROM audit_retention_policies ORDER BY entity_type`,
        ),
        m.query<StorageRow[]>(
          `WITH s AS (
             SELECT pg_total_relation_size('audit_logs') AS audit,
                    pg_total_relation_size('audit_retention_policies') AS policies,
                    (SELECT coalesce(sum(pg_column_size(l.*)), 0) FROM audit_logs l WHERE action IN ('LOGIN', 'LOGOUT')) AS logins)
           SELECT pg_size_pretty(audit) AS audit_logs, pg_size_pretty(logins::bigint) AS login_history,
                  pg_size_pretty(audit + policies) AS total, audit AS audit_bytes FROM s`,
        ),
      ]),
    );
    const defaultDays =
      policies.find((p) => p.entity_type === DEFAULT_POLICY_KEY)?.retention_days ??
      this.settings.AUDIT_RETENTION_DAYS_DEFAULT;
    const seen = new Set(types.map((t) => t.entity_type));
    const retentionPolicies = [
      ...types.map((t) => ({
        entityType: t.entity_type ?? NO_ENTITY_TYPE,
        retentionDays: Number(t.retention_days),
        oldestRecord: t.oldest ? new Date(t.oldest).toISOString().slice(0, 10) : null,
        totalRecords: Number(t.total),
        recordsEligibleForDeletion: Number(t.eligible),
      })),
      ...policies
        .filter((p) => p.entity_type !== DEFAULT_POLICY_KEY && !seen.has(p.entity_type))
        .map((p) => ({
          entityType: p.entity_type,
          retentionDays: p.retention_days,
          oldestRecord: null,
          totalRecords: 0,
          recordsEligibleForDeletion: 0,
        })),
    ];
    const eligible = retentionPolicies.reduce((sum, p) => sum + p.recordsEligibleForDeletion, 0);
    const withoutPolicy = types
      .filter((t) => !t.has_policy && t.entity_type !== null)
      .map((t) => t.entity_type);
    return {
      data: {
        generatedAt: new Date().toISOString(),
        retentionPolicies,
        storageUsage: {
          auditLogs: storage.audit_logs,
          loginHistory: storage.login_history,
          total: storage.total,
        },
        complianceStatus: eligible ? 'ACTION_REQUIRED' : 'COMPLIANT',
        recommendations: this.recommendations(
          eligible,
          withoutPolicy as string[],
          defaultDays,
          Number(storage.audit_bytes),
        ),
      },
    };
  }

  private recommendations(
    eligible: number,
    withoutPolicy: string[],
    defaultDays: number,
    bytes: number,
  ): string[] {
    const out: string[] = [];
    if (eligible) {
      out.push(
        `${eligible} audit entries are past their retention period: run the retention job (POST /compliance/audit/retention/run) or check that AUDIT_RETENTION_INTERVAL_MS is not 0.`,
      );
    }
    if (!this.settings.AUDIT_RETENTION_INTERVAL_MS) {
      out.push(
        'The scheduled retention job is off (AUDIT_RETENTION_INTERVAL_MS=0): entries are never removed automatically.',
      );
    }
    if (withoutPolicy.length) {
      out.push(
        `No retention policy for ${withoutPolicy.join(', ')}: the default of ${defaultDays} days applies; set one with PUT /compliance/audit/retention-policies/{entityType}.`,
      );
    }
    if (bytes > 10 * 1024 ** 3) {
      out.push(
        'The audit log exceeds 10 GB: consider shorter policies for high-volume entity types or archiving exports.',
      );
    }
    if (!out.length) out.push('Retention policies are applied and no entry is overdue: no action needed.');
    return out;
  }
}
