import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { AuditReportsRepository } from './audit-reports.repository';
import { reportPeriod } from '../queries/audit-dates';
import { pairSessions, SessionEvent } from './session-pairing';

/** One user's activity over a period; sessions are paired from LOGIN/LOGOUT entries. */
@Injectable()
export class UserActivityService {
  constructor(private readonly reports: AuditReportsRepository) {}

  async report(userId: number, startDate?: string, endDate?: string) {
    const period = reportPeriod(startDate, endDate);
    const { from, to, endExclusive } = period;
    const [row, sessions, username] = await Promise.all([
      this.reports.userActivity(userId, from, to, endExclusive),
      this.reports.sessionEvents(userId, from, to, endExclusive),
      this.reports.username(userId),
    ]);
    if (username === undefined && Number(row.total) === 0 && !(await this.reports.hasEntriesOf(userId))) {
      throw AppError.notFound('User');
    }
    const paired = pairSessions(
      sessions.map((s): SessionEvent => ({
        action: s.action,
        timestamp: new Date(s.timestamp),
        success: !s.failed,
      })),
    );
    return {
      data: {
        userId,
        username: username ?? row.last_username,
        period: { startDate: period.startText, endDate: period.endText },
        totalActions: Number(row.total),
        actionsByType: row.by_action,
        entitiesAccessed: row.by_type,
        loginSessions: paired.loginSessions,
        avgSessionDurationMinutes: paired.avgSessionDurationMinutes,
        ipAddresses: row.ips,
        lastActivity: row.last_activity ? new Date(row.last_activity).toISOString() : null,
      },
    };
  }
}
