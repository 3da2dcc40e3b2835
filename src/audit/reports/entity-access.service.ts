import { Injectable } from '@nestjs/common';
import { AuditReportsRepository } from './audit-reports.repository';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/**
 * Who touched one entity: every audit entry about it counts as an access (reads, changes, exports);
 * the change history lists one row per changed field of its latest 500 CREATE/UPDATE/DELETE entries.
 */
@Injectable()
export class EntityAccessService {
  constructor(private readonly reports: AuditReportsRepository) {}

  /** `companyId`: only entries of that company (the caller's scope below ADMIN); null: every company. */
  async report(entityType: string, entityId: number, companyId: number | null) {
    const [row, changes] = await Promise.all([
      this.reports.entityAccess(entityType, entityId, companyId),
      this.reports.changeHistory(entityType, entityId, companyId),
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
