import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { insertAtCommit } from '../database/commit-inserts.repository';
import { SqlExample } from '../database/sql-example';
import { AuditAction } from './audit-log.entity';

/** One audit_logs row as written (changes and metadata as JSON text). */
export interface AuditLogInsert {
  action: AuditAction;
  entity_type: string | null;
  entity_id: number | string | null;
  user_id: number | null;
  username: string | null;
  ip_address: string | null;
  user_agent: string | null;
  message: string | null;
  changes: string | null;
  metadata: string | null;
  company_id: number | null;
}

const AUDIT_COLUMNS = [
  'action',
  'entity_type',
  'entity_id',
  'user_id',
  'username',
  'ip_address',
  'user_agent',
  'message',
  'changes',
  'metadata',
  'company_id',
] as const satisfies readonly (keyof AuditLogInsert)[];

/** Writes of the audit trail (append-only: reads live in src/audit). */
@Injectable()
export class AuditLogRepository {
  /**
   * Adds an entry to the transaction of `tx`, sent with the transaction's other side records just
   * before COMMIT (insertAtCommit); outside a transaction it is inserted at once.
   */
  @SqlExample((c) => [
    c.manager,
    {
      action: 'UPDATE',
      entity_type: 'Unit',
      entity_id: 7,
      user_id: 3,
      username: 'admin',
      ip_address: '10.0.0.1',
      user_agent: 'curl/8.5.0',
      message: 'Unit updated',
      changes: '{"name":{"old":"A","new":"B"}}',
      metadata: null,
      company_id: 2,
    },
  ])
  insert(tx: EntityManager, row: AuditLogInsert): Promise<void> {
    return insertAtCommit(
      tx,
      'audit_logs',
      AUDIT_COLUMNS,
      AUDIT_COLUMNS.map((column) => row[column]),
    );
  }
}
