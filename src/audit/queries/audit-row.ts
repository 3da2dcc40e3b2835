import { AuditAction } from '../../audit-trail/audit-log.entity';

/** Columns of an audit entry as the API shows it. */
export const ENTRY_COLUMNS = `id, action, entity_type, entity_id, user_id, username, timestamp, ip_address, user_agent, message, changes, metadata`;

export interface AuditRow {
  id: string;
  action: AuditAction;
  entity_type: string | null;
  entity_id: string | null;
  user_id: number | null;
  username: string | null;
  timestamp: Date;
  ip_address: string | null;
  user_agent: string | null;
  message: string | null;
  changes: Record<string, { old: unknown; new: unknown }> | null;
  metadata: Record<string, unknown> | null;
}

export interface AuditEntryView {
  id: number;
  action: AuditAction;
  entityType: string | null;
  entityId: number | null;
  userId: number | null;
  username: string | null;
  timestamp: string;
  ipAddress: string | null;
  userAgent: string | null;
  message: string | null;
  changes: Record<string, { old: unknown; new: unknown }> | null;
  metadata: Record<string, unknown> | null;
}

export function toEntryView(row: AuditRow): AuditEntryView {
  return {
    id: Number(row.id),
    action: row.action,
    entityType: row.entity_type,
    entityId: row.entity_id === null ? null : Number(row.entity_id),
    userId: row.user_id,
    username: row.username,
    timestamp: new Date(row.timestamp).toISOString(),
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    message: row.message,
    changes: row.changes,
    metadata: row.metadata,
  };
}
