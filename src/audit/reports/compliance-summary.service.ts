import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { reportPeriod } from '../queries/audit-dates';
import { countsOfDays, startOfUtcDay } from './daily-rollups';
import { SUMMARY_KIND } from './report-predicates';
import { AuditReportsRepository } from './audit-reports.repository';
import { addRows, emptyCounts, SummaryCounts } from './summary-counts';

const DAY_MS = 86_400_000;

/**
 * Counts of one period. Whole UTC days that are over come from `audit_daily_rollups` (computed once,
 * dropped by trigger if such a day ever changes); the partial days at either end and today come from
 * an index-only scan of the covering timestamp index, grouped five ways at once.
 */
@Injectable()
export class ComplianceSummaryService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly reports: AuditReportsRepository,
  ) {}

  async report(startDate?: string, endDate?: string) {
    const period = reportPeriod(startDate, endDate);
    const counts = await this.db.run((m) => this.count(m, period.from, period.to, period.endExclusive));
    const byAction = counts.action;
    const kinds = counts.kind;
    return {
      data: {
        period: { startDate: period.startText, endDate: period.endText },
        totalEvents: Object.values(byAction).reduce((a, b) => a + b, 0),
        eventsByAction: byAction,
        eventsByEntityType: counts.type,
        uniqueUsers: counts.users.size,
        uniqueIpAddresses: counts.ips.size,
        securityEvents: {
          failedLogins: kinds[SUMMARY_KIND.FAILED_LOGIN] ?? 0,
          passwordChanges: kinds[SUMMARY_KIND.PASSWORD_CHANGE] ?? 0,
          roleChanges: kinds[SUMMARY_KIND.ROLE_CHANGE] ?? 0,
        },
        dataChanges: {
          created: byAction.CREATE ?? 0,
          modified: byAction.UPDATE ?? 0,
          deleted: byAction.DELETE ?? 0,
        },
      },
    };
  }

  private async count(m: EntityManager, from: Date, to: Date, endExclusive: boolean): Promise<SummaryCounts> {
    const firstFull = new Date(Math.ceil(from.getTime() / DAY_MS) * DAY_MS);
    // Whole days strictly inside the period that have ended (today is always counted live).
    const endFull = new Date(Math.min(startOfUtcDay(to).getTime(), startOfUtcDay(new Date()).getTime()));
    const live = (start: Date, end: Date, exclusive: boolean) =>
      this.reports.periodCounts(m, start, end, exclusive);
    if (endFull <= firstFull) return addRows(emptyCounts(), await live(from, to, endExclusive));
    const total = await countsOfDays(this.reports, m, firstFull, endFull);
    if (from < firstFull) addRows(total, await live(from, firstFull, true));
    addRows(total, await live(endFull, to, endExclusive));
    return total;
  }
}
