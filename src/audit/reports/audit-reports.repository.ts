import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlExample } from '../../database/sql-example';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { companyCondition } from '../../access/company-rule';
import { DEFAULT_POLICY_KEY } from '../entities/retention-policy.entity';
import { inPeriod } from './report-predicates';
import { GroupRow } from './summary-counts';

const HISTORY_ENTRIES = 500;
const FROM = new Date('2026-01-01T00:00:00.000Z');
const TO = new Date('2026-01-31T00:00:00.000Z');

export interface RollupRow {
  day: string;
  counts: { action: Record<string, number>; type: Record<string, number>; kind: Record<string, number> };
  user_ids: number[];
  ip_addresses: string[];
}

export interface ActivityRow {
  total: string;
  by_action: Record<string, number>;
  by_type: Record<string, number>;
  ips: string[];
  last_activity: Date | null;
  last_username: string | null;
}

export interface SessionRow {
  action: 'LOGIN' | 'LOGOUT';
  timestamp: Date;
  failed: boolean;
}

export interface AccessRow {
  created_at: Date | null;
  created_by: string | null;
  last_modified: Date | null;
  last_modified_by: string | null;
  total: string;
  users: string;
  by_user: { username: string; accessCount: number; lastAccess: string }[] | null;
}

export interface ChangeRow {
  timestamp: Date;
  user: string | null;
  action: string;
  field: string | null;
  old_value: unknown;
  new_value: unknown;
}

export interface RetentionTypeRow {
  entity_type: string | null;
  retention_days: number;
  has_policy: boolean;
  oldest: Date | null;
  total: string;
  eligible: string;
}

export interface PolicyDaysRow {
  entity_type: string;
  retention_days: number;
}

export interface StorageRow {
  audit_logs: string;
  login_history: string;
  total: string;
  audit_bytes: string;
}

/** The grouping sets of one or more periods; `$1`/`$2` bound the rows, `byDay` adds the UTC day. */
function groupingSql(where: string, byDay = false): string {
  const day = byDay ? `(timestamp AT TIME ZONE 'UTC')::date` : '';
  const set = (col: string) => (byDay ? `(${day}, ${col})` : `(${col})`);
  return `SELECT ${byDay ? `to_char(${day}, 'YYYY-MM-DD') AS day,` : ''}
                 CASE WHEN GROUPING(action) = 0 THEN 'action' WHEN GROUPING(entity_type) = 0 THEN 'type'
                      WHEN GROUPING(summary_kind) = 0 THEN 'kind' WHEN GROUPING(user_id) = 0 THEN 'user'
                      ELSE 'ip' END AS dim,
                 coalesce(action, entity_type, summary_kind::text, user_id::text, ip_address) AS key,
                 count(*) AS n
            FROM audit_logs WHERE ${where}
           GROUP BY GROUPING SETS (${['action', 'entity_type', 'summary_kind', 'user_id', 'ip_address'].map(set).join(', ')})`;
}

/** Matches one entity's entries: `$1` type, `$2` id, `$3` the caller's company scope. */
const ENTITY_MATCH = `entity_type = $1 AND entity_id = $2 AND ${companyCondition('company_id', 3)}`;

/** The statements of the compliance reports over the audit trail. */
@Injectable()
export class AuditReportsRepository {
  constructor(private readonly db: TenantDatabase) {}

  /** Counts of [from, to] (or [from, to)) grouped five ways at once. */
  @SqlExample((c) => [c.manager, FROM, TO, true])
  @SqlExample((c) => [c.manager, FROM, TO, false])
  periodCounts(m: EntityManager, from: Date, to: Date, endExclusive: boolean): Promise<GroupRow[]> {
    return m.query<GroupRow[]>(groupingSql(inPeriod(endExclusive)), [from, to]);
  }

  /** The same counts per UTC day of [from, to). */
  @SqlExample((c) => [c.manager, FROM, TO])
  dailyCounts(m: EntityManager, from: Date, to: Date): Promise<(GroupRow & { day: string })[]> {
    return m.query(groupingSql(inPeriod(true), true), [from, to]);
  }

  /** Stored roll-ups of the days [firstDay, endDay) (`YYYY-MM-DD`). */
  @SqlExample((c) => [c.manager, '2026-01-01', '2026-01-31'])
  rollups(m: EntityManager, firstDay: string, endDay: string): Promise<RollupRow[]> {
    return m.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, counts, user_ids, ip_addresses
       FROM audit_daily_rollups WHERE day >= $1::date AND day < $2::date`,
      [firstDay, endDay],
    );
  }

  /** Stores one day's roll-up (a day another request stored first stays as it is). */
  @SqlExample((c) => [
    c.manager,
    {
      day: '2026-01-02',
      counts: { action: { LOGIN: 2 }, type: {}, kind: {} },
      user_ids: [3],
      ip_addresses: ['10.0.0.1'],
    },
  ])
  async storeRollup(m: EntityManager, rollup: RollupRow): Promise<void> {
    await m.query(
      `INSERT INTO audit_daily_rollups (day, counts, user_ids, ip_addresses) VALUES ($1::date, $2, $3, $4)
       ON CONFLICT (day) DO NOTHING`,
      [rollup.day, JSON.stringify(rollup.counts), rollup.user_ids, rollup.ip_addresses],
    );
  }

  /** One user's totals over a period. */
  @SqlExample([3, FROM, TO, true])
  async userActivity(userId: number, from: Date, to: Date, endExclusive: boolean): Promise<ActivityRow> {
    const [row] = await this.db.run<ActivityRow[]>((m) =>
      m.query(
        `WITH scoped AS MATERIALIZED (
             SELECT action, entity_type, ip_address, timestamp, username FROM audit_logs WHERE ${userInPeriod(endExclusive)}
           )
           SELECT (SELECT count(*) FROM scoped) AS total,
                  (SELECT coalesce(jsonb_object_agg(action, n), '{}') FROM
                     (SELECT action, count(*) AS n FROM scoped GROUP BY action) a) AS by_action,
                  (SELECT coalesce(jsonb_object_agg(entity_type, n), '{}') FROM
                     (SELECT entity_type, count(*) AS n FROM scoped WHERE entity_type IS NOT NULL GROUP BY entity_type) t) AS by_type,
                  (SELECT coalesce(array_agg(DISTINCT ip_address ORDER BY ip_address), '{}') FROM scoped WHERE ip_address IS NOT NULL) AS ips,
                  (SELECT max(timestamp) FROM scoped) AS last_activity,
                  (SELECT username FROM scoped WHERE username IS NOT NULL ORDER BY timestamp DESC LIMIT 1) AS last_username`,
        [from, to, userId],
      ),
    );
    return row;
  }

  /** One user's LOGIN and LOGOUT entries of a period, in time order. */
  @SqlExample([3, FROM, TO, true])
  sessionEvents(userId: number, from: Date, to: Date, endExclusive: boolean): Promise<SessionRow[]> {
    return this.db.run((m) =>
      m.query(
        `SELECT action, timestamp,
                  (metadata->>'success' = 'false' OR metadata->>'event' = 'LOGIN_FAILED') IS TRUE AS failed
             FROM audit_logs WHERE ${userInPeriod(endExclusive)} AND action IN ('LOGIN', 'LOGOUT') ORDER BY timestamp, id`,
        [from, to, userId],
      ),
    );
  }

  /** The name of a user who still exists (identity tables live in `public`). */
  @SqlExample([3])
  async username(userId: number): Promise<string | undefined> {
    const rows = await this.db.production<{ username: string }[]>((m) =>
      m.query(`SELECT coalesce(username, email) AS username FROM users WHERE id = $1`, [userId]),
    );
    return rows[0]?.username;
  }

  /** Whether the trail names this user at all. */
  @SqlExample([3])
  async hasEntriesOf(userId: number): Promise<boolean> {
    const rows = await this.db.run<unknown[]>((m) =>
      m.query(`SELECT 1 FROM audit_logs WHERE user_id = $1 LIMIT 1`, [userId]),
    );
    return rows.length > 0;
  }

  /** Who created, changed and reached one entity; `scope` null reaches every company. */
  @SqlExample(['Unit', 7, 2])
  async entityAccess(entityType: string, entityId: number, scope: number | null): Promise<AccessRow> {
    const [row] = await this.db.run<AccessRow[]>((m) =>
      m.query(
        `WITH scoped AS MATERIALIZED (
             SELECT id, action, timestamp, user_id, username FROM audit_logs WHERE ${ENTITY_MATCH}
           ), created AS (
             SELECT timestamp, username FROM scoped WHERE action = 'CREATE' ORDER BY timestamp, id LIMIT 1
           ), modified AS (
             SELECT timestamp, username FROM scoped WHERE action IN ('CREATE', 'UPDATE', 'DELETE')
              ORDER BY timestamp DESC, id DESC LIMIT 1
           )
           SELECT (SELECT timestamp FROM created) AS created_at, (SELECT username FROM created) AS created_by,
                  (SELECT timestamp FROM modified) AS last_modified, (SELECT username FROM modified) AS last_modified_by,
                  (SELECT count(*) FROM scoped) AS total,
                  (SELECT count(DISTINCT coalesce(user_id::text, username)) FROM scoped) AS users,
                  (SELECT jsonb_agg(jsonb_build_object('username', u, 'accessCount', n, 'lastAccess', last) ORDER BY n DESC, u)
                     FROM (SELECT coalesce(username, 'unknown') AS u, count(*) AS n, max(timestamp) AS last
                             FROM scoped GROUP BY 1) g) AS by_user`,
        [entityType, entityId, scope],
      ),
    );
    return row;
  }

  /** One row per changed field of the entity's latest 500 CREATE/UPDATE/DELETE entries. */
  @SqlExample(['Unit', 7, 2])
  changeHistory(entityType: string, entityId: number, scope: number | null): Promise<ChangeRow[]> {
    return this.db.run((m) =>
      m.query(
        `SELECT a.timestamp, a.username AS user, a.action, c.key AS field,
                  c.value->'old' AS old_value, c.value->'new' AS new_value
             FROM (SELECT id, timestamp, username, action, changes FROM audit_logs
                    WHERE ${ENTITY_MATCH} AND action IN ('CREATE', 'UPDATE', 'DELETE')
                    ORDER BY timestamp DESC, id DESC LIMIT ${HISTORY_ENTRIES}) a
             LEFT JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(a.changes) = 'object' THEN a.changes ELSE '{}' END) c
               ON true
            ORDER BY a.timestamp DESC, a.id DESC, c.key`,
        [entityType, entityId, scope],
      ),
    );
  }

  /** Entries per entity type with their retention and how many are past it. */
  @SqlExample((c) => [c.manager, 365])
  retentionByType(m: EntityManager, defaultDays: number): Promise<RetentionTypeRow[]> {
    return m.query<RetentionTypeRow[]>(
      `WITH d AS (SELECT coalesce((SELECT retention_days FROM audit_retention_policies WHERE entity_type = $2), $1)::int AS days)
           SELECT a.entity_type, coalesce(p.retention_days, d.days) AS retention_days, p.entity_type IS NOT NULL AS has_policy,
                  min(a.timestamp) AS oldest, count(*) AS total,
                  count(*) FILTER (WHERE a.timestamp < now() - make_interval(days => coalesce(p.retention_days, d.days))) AS eligible
             FROM audit_logs a CROSS JOIN d LEFT JOIN audit_retention_policies p ON p.entity_type = a.entity_type
            GROUP BY a.entity_type, p.entity_type, p.retention_days, d.days
            ORDER BY a.entity_type NULLS FIRST`,
      [defaultDays, DEFAULT_POLICY_KEY],
    );
  }

  @SqlExample((c) => [c.manager])
  policyDays(m: EntityManager): Promise<PolicyDaysRow[]> {
    return m.query<PolicyDaysRow[]>(
      `SELECT entity_type, retention_days FROM audit_retention_policies ORDER BY entity_type`,
    );
  }

  /** Sizes of the audit tables as PostgreSQL reports them. */
  @SqlExample((c) => [c.manager])
  async storage(m: EntityManager): Promise<StorageRow> {
    const [row] = await m.query<StorageRow[]>(
      `WITH s AS (
             SELECT pg_total_relation_size('audit_logs') AS audit,
                    pg_total_relation_size('audit_retention_policies') AS policies,
                    (SELECT coalesce(sum(pg_column_size(l.*)), 0) FROM audit_logs l WHERE action IN ('LOGIN', 'LOGOUT')) AS logins)
           SELECT pg_size_pretty(audit) AS audit_logs, pg_size_pretty(logins::bigint) AS login_history,
                  pg_size_pretty(audit + policies) AS total, audit AS audit_bytes FROM s`,
    );
    return row;
  }
}

/** `$3` the user, `$1`/`$2` the period. */
function userInPeriod(endExclusive: boolean): string {
  return `user_id = $3 AND ${inPeriod(endExclusive)}`;
}
