import { Injectable } from '@nestjs/common';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AuditSettings } from '../../audit-trail/audit.settings';
import { DEFAULT_POLICY_KEY } from '../entities/retention-policy.entity';
import { AuditReportsRepository } from './audit-reports.repository';

/** Label of entries without an entity type (logins, recorded errors): they follow the default policy. */
export const NO_ENTITY_TYPE = '(none)';

/** Retention per entity type, storage sizes from PostgreSQL, status and recommendations. */
@Injectable()
export class RetentionReportService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly settings: AuditSettings,
    private readonly reports: AuditReportsRepository,
  ) {}

  async report() {
    const [types, policies, storage] = await this.db.run((m) =>
      Promise.all([
        this.reports.retentionByType(m, this.settings.AUDIT_RETENTION_DAYS_DEFAULT),
        this.reports.policyDays(m),
        this.reports.storage(m),
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
