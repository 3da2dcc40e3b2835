import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { modifyReturning } from '../database/returning.repository';
import { SqlExample } from '../database/sql-example';
import { TenantDatabase } from '../tenancy/tenant-database';
import { WEBHOOK_COLUMNS, WebhookRow } from './webhook.view';

/** A new webhook as stored (the secret sealed, headers as JSON text). */
export interface WebhookInsert {
  name: string;
  description: string | null;
  url: string;
  company_id: number | null;
  events: string[];
  custom_headers: string;
  http_method: string;
  content_type: string;
  timeout_ms: number;
  max_retries: number;
  verify_ssl: boolean;
  auto_disable_after_failures: number;
  secret_encrypted: string;
  secret_preview: string;
  created_by_id: number;
}

const INSERT_COLUMNS = [
  'name',
  'description',
  'url',
  'company_id',
  'events',
  'custom_headers',
  'http_method',
  'content_type',
  'timeout_ms',
  'max_retries',
  'verify_ssl',
  'auto_disable_after_failures',
  'secret_encrypted',
  'secret_preview',
  'created_by_id',
] as const satisfies readonly (keyof WebhookInsert)[];

/** Columns an update may set (values already in their stored form): all but the secret and its author. */
export type WebhookChanges = Partial<
  Omit<WebhookInsert, 'secret_encrypted' | 'secret_preview' | 'created_by_id'>
>;

const EXAMPLE_WEBHOOK: WebhookInsert = {
  name: 'Unit changes',
  description: null,
  url: 'https://hooks.example.com/svc',
  company_id: 2,
  events: ['unit.created'],
  custom_headers: '{}',
  http_method: 'POST',
  content_type: 'application/json',
  timeout_ms: 30000,
  max_retries: 3,
  verify_ssl: true,
  auto_disable_after_failures: 10,
  secret_encrypted: 'sealed',
  secret_preview: 'whsec_ab…',
  created_by_id: 3,
};

/** The webhooks of the current client database (`public.webhooks`). */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: TenantDatabase) {}

  /** The webhooks of one company named in the path (not a caller's scope). */
  @SqlExample([2])
  listOfCompany(companyId: number): Promise<WebhookRow[]> {
    return this.db.run((m) =>
      m.query(`SELECT ${WEBHOOK_COLUMNS} FROM public.webhooks WHERE company_id = $1 ORDER BY id`, [
        companyId,
      ]),
    );
  }

  /** One webhook, locked until the transaction ends when `lock`. */
  @SqlExample((c) => [c.manager, 7])
  @SqlExample((c) => [c.manager, 7, true])
  async find(m: EntityManager, id: number, lock = false): Promise<WebhookRow | undefined> {
    const [row]: WebhookRow[] = await m.query(
      `SELECT ${WEBHOOK_COLUMNS} FROM public.webhooks WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return row;
  }

  @SqlExample((c) => [c.manager, EXAMPLE_WEBHOOK])
  async insert(tx: EntityManager, webhook: WebhookInsert): Promise<WebhookRow> {
    const [created]: WebhookRow[] = await tx.query(
      `INSERT INTO public.webhooks (name, description, url, company_id, events, custom_headers, http_method, content_type,
                timeout_ms, max_retries, verify_ssl, auto_disable_after_failures, secret_encrypted, secret_preview, created_by_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING ${WEBHOOK_COLUMNS}`,
      INSERT_COLUMNS.map((column) => webhook[column]),
    );
    return created;
  }

  /** Sets the given columns (at least one) and answers the row after. */
  @SqlExample((c) => [c.manager, 7, { name: 'Renamed', events: ['*'] }])
  async update(tx: EntityManager, id: number, changes: WebhookChanges): Promise<WebhookRow> {
    const params: unknown[] = [id];
    const sets = Object.entries(changes).map(([column, value]) => {
      params.push(value);
      return `${column} = $${params.length}`;
    });
    const [after] = await modifyReturning<WebhookRow>(
      tx,
      `UPDATE public.webhooks SET ${sets.join(', ')}, updated_at = now() WHERE id = $1 RETURNING ${WEBHOOK_COLUMNS}`,
      params,
    );
    return after;
  }

  /** Enables (clearing the failure count and reason) or disables by an administrator. */
  @SqlExample((c) => [c.manager, 7, false])
  async setActive(tx: EntityManager, id: number, active: boolean): Promise<WebhookRow> {
    const [after] = await modifyReturning<WebhookRow>(
      tx,
      `UPDATE public.webhooks
            SET is_active = $2, updated_at = now(),
                consecutive_failures = CASE WHEN $2 THEN 0 ELSE consecutive_failures END,
                disabled_reason = CASE WHEN $2 THEN NULL ELSE 'Disabled by an administrator' END
          WHERE id = $1 RETURNING ${WEBHOOK_COLUMNS}`,
      [id, active],
    );
    return after;
  }

  @SqlExample((c) => [c.manager, 7, 'sealed', 'whsec_ab…'])
  async setSecret(tx: EntityManager, id: number, sealed: string, preview: string): Promise<WebhookRow> {
    const [after] = await modifyReturning<WebhookRow>(
      tx,
      `UPDATE public.webhooks SET secret_encrypted = $2, secret_preview = $3, updated_at = now()
          WHERE id = $1 RETURNING ${WEBHOOK_COLUMNS}`,
      [id, sealed, preview],
    );
    return after;
  }

  @SqlExample((c) => [c.manager, 7])
  async delete(tx: EntityManager, id: number): Promise<void> {
    await tx.query('DELETE FROM public.webhooks WHERE id = $1', [id]);
  }

  @SqlExample((c) => [c.manager, 2])
  async companyExists(tx: EntityManager, companyId: number): Promise<boolean> {
    const rows: unknown[] = await tx.query('SELECT id FROM public.companies WHERE id = $1', [companyId]);
    return rows.length > 0;
  }

  /**
   * Webhooks of one group (a company's, or the system-wide ones for null), counted under a
   * transaction lock of that group so two creations cannot both pass the limit.
   */
  @SqlExample((c) => [c.manager, 7243100, 2])
  @SqlExample((c) => [c.manager, 7243100, null])
  async countInGroupLocked(tx: EntityManager, lockKey: number, companyId: number | null): Promise<number> {
    await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [lockKey, companyId ?? 0]);
    const [{ count }]: { count: number }[] = await tx.query(
      'SELECT count(*)::int AS count FROM public.webhooks WHERE company_id IS NOT DISTINCT FROM $1',
      [companyId],
    );
    return count;
  }

  /** A delivery succeeded: the failure count restarts and the delivery time is stamped. */
  @SqlExample((c) => [c.manager, 7])
  async markDelivered(m: EntityManager, id: number): Promise<void> {
    await m.query(
      'UPDATE public.webhooks SET consecutive_failures = 0, last_delivery_at = now() WHERE id = $1',
      [id],
    );
  }

  /**
   * A delivery failed: one more consecutive failure, and the webhook disabled when they reach its
   * autoDisableAfterFailures. Answers whether it is still active (undefined: no such webhook).
   */
  @SqlExample((c) => [c.manager, 7])
  async countFailure(m: EntityManager, id: number): Promise<boolean | undefined> {
    const [hook] = await modifyReturning<{ is_active: boolean }>(
      m,
      `UPDATE public.webhooks w
            SET consecutive_failures = w.consecutive_failures + 1, last_delivery_at = now(),
                is_active = w.is_active AND NOT (w.auto_disable_after_failures > 0
                            AND w.consecutive_failures + 1 >= w.auto_disable_after_failures),
                disabled_reason = CASE WHEN w.is_active AND w.auto_disable_after_failures > 0
                            AND w.consecutive_failures + 1 >= w.auto_disable_after_failures
                            THEN 'Disabled after ' || (w.consecutive_failures + 1) || ' consecutive failures'
                            ELSE w.disabled_reason END
          WHERE w.id = $1
          RETURNING w.is_active`,
      [id],
    );
    return hook?.is_active;
  }
}
