import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { tenantContext } from '../tenancy/tenant-context';
import { AuditAction } from './audit-log.entity';
import { AuditLogRepository } from './audit-log.repository';

export type FieldChanges = Record<string, { old: unknown; new: unknown }>;

export interface AuditEntry {
  action: AuditAction;
  entityType?: string;
  entityId?: number | string | null;
  message?: string;
  changes?: FieldChanges | null;
  metadata?: Record<string, unknown> | null;
  /** Defaults to the principal of the current request. */
  userId?: number | null;
  username?: string | null;
  /** Default to the address and user agent of the current request. */
  ipAddress?: string | null;
  userAgent?: string | null;
  /** Defaults to the company of the current request's principal. */
  companyId?: number | null;
}

/** Fields never written to the audit trail, whatever entity they belong to. */
const SECRET_FIELDS = /password|secret|token|hash|otp|recovery/i;

/**
 * The one audit writer. Call it with the EntityManager of the transaction that makes the change,
 * so that a rolled-back change leaves no entry and a committed one always has one. Inside a
 * transaction the row goes out just before COMMIT, in one statement with the outbox event.
 */
@Injectable()
export class AuditWriter {
  constructor(private readonly log: AuditLogRepository) {}

  async record(manager: EntityManager, entry: AuditEntry): Promise<void> {
    const store = tenantContext.peek();
    const principal = store?.principal;
    await this.log.insert(manager, {
      action: entry.action,
      entity_type: entry.entityType ?? null,
      entity_id: entry.entityId ?? null,
      user_id: entry.userId !== undefined ? entry.userId : (principal?.userId ?? null),
      username:
        entry.username !== undefined ? entry.username : (principal?.username ?? principal?.email ?? null),
      ip_address: normalizeIp(entry.ipAddress !== undefined ? entry.ipAddress : (store?.ip ?? null)),
      user_agent:
        (entry.userAgent !== undefined ? entry.userAgent : (store?.userAgent ?? null))?.slice(0, 500) ?? null,
      message: entry.message ?? null,
      changes: entry.changes ? JSON.stringify(entry.changes) : null,
      metadata: entry.metadata ? JSON.stringify(entry.metadata) : null,
      company_id: entry.companyId !== undefined ? entry.companyId : (principal?.companyId ?? null),
    });
  }
}

/** `::ffff:1.2.3.4` (IPv4 seen through an IPv6 socket) is stored as `1.2.3.4`. */
export function normalizeIp(ip: string | null): string | null {
  return ip ? ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1').slice(0, 64) : null;
}

const comparable = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** field → {old, new} for every field that differs; secrets are left out. */
export function diffChanges(
  before: object | null,
  after: object | null,
  ignore: string[] = ['updatedAt', 'createdAt'],
): FieldChanges {
  const changes: FieldChanges = {};
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (ignore.includes(key) || SECRET_FIELDS.test(key)) continue;
    const oldValue = comparable(b[key]) ?? null;
    const newValue = comparable(a[key]) ?? null;
    if (JSON.stringify(oldValue) !== JSON.stringify(newValue))
      changes[key] = { old: oldValue, new: newValue };
  }
  return changes;
}
