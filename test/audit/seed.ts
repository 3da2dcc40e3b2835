import { Client as PgClient } from 'pg';

interface SeedEntry {
  at: string;
  action: string;
  type?: string;
  id?: number;
  user: number;
  ip: string;
  message?: string;
  changes?: object;
  metadata?: object;
}

const NAMES: Record<number, string> = {
  9001: 'alice@acme.test',
  9002: 'bob@acme.test',
  9003: 'carol@acme.test',
};

/** Sixteen hand-written entries (January 2025) whose counts the tests check. */
export const ENTRIES: SeedEntry[] = [
  { at: '2025-01-10T08:00:00Z', action: 'LOGIN', user: 9001, ip: '10.0.0.1', metadata: { success: true } },
  {
    at: '2025-01-10T08:05:00Z',
    action: 'CREATE',
    type: 'Permit',
    id: 1,
    user: 9001,
    ip: '10.0.0.1',
    message: 'Permit "P1" created',
    changes: { name: { old: null, new: 'P1' }, status: { old: null, new: 'DRAFT' } },
  },
  {
    at: '2025-01-10T08:30:00Z',
    action: 'UPDATE',
    type: 'Permit',
    id: 1,
    user: 9001,
    ip: '10.0.0.1',
    message: 'Permit "P1" updated',
    changes: { status: { old: 'DRAFT', new: 'ACTIVE' } },
  },
  { at: '2025-01-10T09:00:00Z', action: 'LOGOUT', user: 9001, ip: '10.0.0.1' },
  {
    at: '2025-01-11T10:00:00Z',
    action: 'LOGIN',
    user: 9002,
    ip: '10.0.0.2',
    metadata: { success: false, event: 'LOGIN_FAILED' },
  },
  {
    at: '2025-01-11T10:00:30Z',
    action: 'LOGIN',
    user: 9002,
    ip: '10.0.0.2',
    metadata: { success: false, pending: true, event: 'LOGIN_2FA_REQUIRED' },
  },
  { at: '2025-01-11T10:01:00Z', action: 'LOGIN', user: 9002, ip: '10.0.0.2', metadata: { success: true } },
  {
    at: '2025-01-11T10:10:00Z',
    action: 'ACCESS',
    type: 'Permit',
    id: 1,
    user: 9002,
    ip: '10.0.0.2',
    message: 'Permit "P1" viewed',
  },
  {
    at: '2025-01-11T10:20:00Z',
    action: 'UPDATE',
    type: 'User',
    id: 9002,
    user: 9002,
    ip: '10.0.0.2',
    message: 'Password changed',
    metadata: { event: 'PASSWORD_CHANGE' },
  },
  { at: '2025-01-11T10:40:00Z', action: 'LOGOUT', user: 9002, ip: '10.0.0.2' },
  {
    at: '2025-01-12T12:00:00Z',
    action: 'DELETE',
    type: 'Permit',
    id: 2,
    user: 9001,
    ip: '10.0.0.1',
    message: 'Permit "P2" deleted',
    changes: { name: { old: 'P2', new: null } },
  },
  {
    at: '2025-01-12T12:30:00Z',
    action: 'UPDATE',
    type: 'User',
    id: 9003,
    user: 9001,
    ip: '10.0.0.1',
    message: 'Role assigned',
    changes: { roleId: { old: 5, new: 3 } },
  },
  {
    at: '2025-01-12T13:00:00Z',
    action: 'EXPORT',
    type: 'AuditLog',
    user: 9001,
    ip: '10.0.0.1',
    metadata: { format: 'csv' },
  },
  {
    at: '2025-01-12T14:00:00Z',
    action: 'ACCESS',
    user: 9002,
    ip: '10.0.0.2',
    message: 'GET /api/units/999 answered 404 NOT_FOUND',
    metadata: { error: { status: 404, code: 'NOT_FOUND', message: 'Unit not found' } },
  },
  { at: '2025-01-13T09:00:00Z', action: 'LOGIN', user: 9001, ip: '10.0.0.1', metadata: { success: true } },
  { at: '2025-01-13T09:30:00Z', action: 'LOGOUT', user: 9001, ip: '10.0.0.1' },
];

/** Writes ENTRIES plus `gauges` CREATE entries of type Gauge (5 January 2025, one a minute). */
export async function seedAudit(pg: PgClient, gauges = 60): Promise<void> {
  for (const e of ENTRIES) {
    await pg.query(
      `INSERT INTO audit_logs (action, entity_type, entity_id, user_id, username, timestamp, ip_address, user_agent, message, changes, metadata, company_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'seed/1.0', $8, $9, $10, (SELECT min(id) FROM companies))`,
      [
        e.action,
        e.type ?? null,
        e.id ?? null,
        e.user,
        NAMES[e.user],
        e.at,
        e.ip,
        e.message ?? null,
        e.changes ? JSON.stringify(e.changes) : null,
        e.metadata ? JSON.stringify(e.metadata) : null,
      ],
    );
  }
  await pg.query(
    `INSERT INTO audit_logs (action, entity_type, entity_id, user_id, username, timestamp, ip_address, message, company_id)
     SELECT 'CREATE', 'Gauge', g, 9003, 'carol@acme.test', timestamptz '2025-01-05T00:00:00Z' + g * interval '1 minute',
            '10.0.0.3', 'Gauge #' || g || ' created', (SELECT min(id) FROM companies)
       FROM generate_series(1, $1) AS g`,
    [gauges],
  );
}
