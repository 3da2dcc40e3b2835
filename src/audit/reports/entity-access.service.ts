import { Injectable } from '@nestjs/common';
import { TenantDatabase } from '../../tenancy/tenant-database';

const HISTORY_ENTRIES = 500;

interface AccessRow {
  created_at: Date | null;
  created_by: string | null;
  last_modified: Date | null;
  last_modified_by: string | null;
  total: string;
  users: string;
  by_user: { username: string; accessCount: number; lastAccess: string }[] | null;
}

interface ChangeRow {
  timestamp: Date;
  user: string | null;
  action: string;
  field: string | null;
  old_value: unknown;
  new_value: unknown;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/**
 * Who touched one entity: every audit entry about it counts as an access (reads, changes, exports);
 * the change history lists one row per changed field of its latest 500 CREATE/UPDATE/DELETE entries.
 */
@Injectable()
export class EntityAccessService {
  constructor(private readonly db: TenantDatabase) {}

  /** `companyId`: only entries of that company (the caller's scope below ADMIN); null: every company. */
  async report(entityType: string, entityId: number, companyId: number | null) {
    const params = [entityType, entityId, companyId];
    const match = `entity_type = $1 AND entity_id = $2 AND ($3::int IS NULL OR company_id = $3::int)`;
    const [[row], changes] = await Promise.all([
      this.db.run<AccessRow[]>((m) =>
        m.query(
          `WITH scoped AS MATERIALIZED (
             SELECT id, action, timestamp, user_id, username FROM audit_logs WHERE ${match}
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
          params,
        ),
      ),
      this.db.run<ChangeRow[]>((m) =>
        m.query(
          `SELECT a.timestamp, a.username AS user, a.action, c.key AS field,
                  c.value->'old' AS old_value, c.value->'new' AS new_value
             FROM (SELECT id, timestamp, username, action, changes FROM audit_logs
                    WHERE ${match} AND action IN ('CREATE', 'UPDATE', 'DELETE')
                    ORDER BY timestamp DESC, id DESC LIMIT ${HISTORY_ENTRIES}) a
             LEFT JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(a.changes) = 'object' THEN a.changes ELSE '{}' END) c
               ON true
            ORDER BY a.timestamp DESC, a.id DESC, c.key`,
          params,
        ),
      ),
    ]);
    return {
      data: {
        entityType,
        entityId,
        createdAt: iso(row.created_at),
        createdBy: row.created_by,
        lastModified: iso(row.last_modified),
        lastModifiedBy: row.last_modified_by,
        totalAccessCount: Number(row.total),
        uniqueUsersAccessed: Number(row.users),
        accessByUser: (row.by_user ?? []).map((u) => ({
          username: u.username,
          accessCount: Number(u.accessCount),
          lastAccess: new Date(u.lastAccess).toISOString(),
        })),
        changeHistory: changes.map((c) => ({
          timestamp: new Date(c.timestamp).toISOString(),
          user: c.user,
          action: c.action,
          field: c.field,
          oldValue: c.old_value ?? null,
          newValue: c.new_value ?? null,
        })),
      },
    };
  }
}
