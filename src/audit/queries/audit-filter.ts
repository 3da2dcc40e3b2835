import { companyCondition } from '../../access/company-rule';
import { ERROR_PREDICATE, SECURITY_PREDICATE } from '../../../migrations/client/1733100000000-AuditTrail';
import { normalizeIp } from '../../audit-trail/audit-writer';
import { AuditAction } from '../../audit-trail/audit-log.entity';
import { DateRange } from './audit-dates';

/** What a query or export selects; every value is passed as a parameter. */
export interface AuditFilter {
  action?: AuditAction;
  entityType?: string;
  entityId?: number;
  userId?: number;
  ipAddress?: string;
  /** Matched anywhere in the message, case-insensitively. */
  text?: string;
  security?: boolean;
  errors?: boolean;
  errorStatus?: number;
  errorCode?: string;
  range?: DateRange;
  /** Only entries of this company (the caller's scope below ADMIN); undefined or null: every company. */
  companyId?: number | null;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `WHERE` text and parameters for a filter (`TRUE` when it selects everything). */
export function whereClause(filter: AuditFilter, params: unknown[] = []): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    parts.push(sql(`$${params.length}`));
  };
  if (filter.companyId !== undefined && filter.companyId !== null) {
    params.push(filter.companyId);
    parts.push(companyCondition('company_id', params.length));
  }
  if (filter.action) add((p) => `action = ${p}`, filter.action);
  if (filter.entityType !== undefined) add((p) => `entity_type = ${p}`, filter.entityType);
  if (filter.entityId !== undefined) add((p) => `entity_id = ${p}`, filter.entityId);
  if (filter.userId !== undefined) add((p) => `user_id = ${p}`, filter.userId);
  if (filter.ipAddress !== undefined) add((p) => `ip_address = ${p}`, normalizeIp(filter.ipAddress));
  if (filter.text) add((p) => `message ILIKE ${p}`, `%${escapeLike(filter.text)}%`);
  if (filter.security) parts.push(SECURITY_PREDICATE);
  if (filter.errors || filter.errorStatus !== undefined || filter.errorCode !== undefined)
    parts.push(ERROR_PREDICATE);
  if (filter.errorStatus !== undefined)
    add((p) => `(metadata->'error'->>'status') = ${p}`, String(filter.errorStatus));
  if (filter.errorCode !== undefined) add((p) => `(metadata->'error'->>'code') = ${p}`, filter.errorCode);
  if (filter.range?.from) add((p) => `timestamp >= ${p}`, filter.range.from);
  if (filter.range?.to)
    add((p) => `timestamp ${filter.range?.endExclusive ? '<' : '<='} ${p}`, filter.range.to);
  return { sql: parts.length ? parts.join(' AND ') : 'TRUE', params };
}
