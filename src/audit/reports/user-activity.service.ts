import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { reportPeriod } from '../queries/audit-dates';
import { inPeriod } from './report-predicates';
import { pairSessions, SessionEvent } from './session-pairing';

interface ActivityRow {
  total: string;
  by_action: Record<string, number>;
  by_type: Record<string, number>;
  ips: string[];
  last_activity: Date | null;
  last_username: string | null;
}

/** One user's activity over a period; sessions are paired from LOGIN/LOGOUT entries. */
@Injectable()
export class UserActivityService {
  constructor(private readonly db: TenantDatabase) {}

  async report(userId: number, startDate?: string, endDate?: string) {
    const period = reportPeriod(startDate, endDate);
    const where = `user_id = $3 AND ${inPeriod(period.endExclusive)}`;
    const params = [period.from, period.to, userId];
    const [[row], sessions, user] = await Promise.all([
      this.db.run<ActivityRow[]>((m) =>
        m.query(
          `WITH scoped AS MATERIALIZED (
             SELECT action, entity_type, ip_address, timestamp, username FROM audit_logs WHERE ${where}
           )
           SELECT (SELECT count(*) FROM scoped) AS total,
                  (SELECT coalesce(jsonb_object_agg(action, n), '{}') FROM
                     (SELECT action, count(*) AS n FROM scoped GROUP BY action) a) AS by_action,
                  (SELECT coalesce(jsonb_object_agg(entity_type, n), '{}') FROM
                     (SELECT entity_type, count(*) AS n FROM scoped WHERE entity_type IS NOT NULL GROUP BY entity_type) t) AS by_type,
                  (SELECT coalesce(array_agg(DISTINCT ip_address ORDER BY ip_address), '{}') FROM scoped WHERE ip_address IS NOT NULL) AS ips,
                  (SELECT max(timestamp) FROM scoped) AS last_activity,
                  (SELECT username FROM scoped WHERE username IS NOT NULL ORDER BY timestamp DESC LIMIT 1) AS last_username`,
          params,
        ),
      ),
      this.db.run<{ action: 'LOGIN' | 'LOGOUT'; timestamp: Date; failed: boolean }[]>((m) =>
        m.query(
          `SELECT action, timestamp,
                  (metadata->>'success' = 'false' OR metadata->>'event' = 'LOGIN_FAILED') IS TRUE AS failed
             FROM audit_logs WHERE ${where} AND action IN ('LOGIN', 'LOGOUT') ORDER BY timestamp, id`,
          params,
        ),
      ),
      this.db.production<{ username: string }[]>((m) =>
        m.query(`SELECT coalesce(username, email) AS username FROM users WHERE id = $1`, [userId]),
      ),
    ]);
    if (!user.length && Number(row.total) === 0 && !(await this.hasEntries(userId))) {
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
        username: user[0]?.username ?? row.last_username,
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

  /** A user id known only from the trail (a deleted user, another company's) still has a report. */
  private async hasEntries(userId: number): Promise<boolean> {
    const rows = await this.db.run((m) =>
      m.query(`SELECT 1 FROM audit_logs WHERE user_id = $1 LIMIT 1`, [userId]),
    );
    return rows.length > 0;
  }
}
