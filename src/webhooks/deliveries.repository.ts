import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { modifyReturning } from '../database/returning.repository';
import { SqlExample } from '../database/sql-example';
import { MASTER_CLIENT, TenantClient } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';

/** A delivery as the API shows its history. */
export interface DeliveryRow {
  id: string;
  webhook_id: number;
  event_type: string;
  event_id: string;
  status: string;
  attempt_count: number;
  max_attempts: number;
  response_status: number | null;
  error_message: string | null;
  duration_ms: number | null;
  next_attempt_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
}

/** A delivery that may be attempted now, with what its webhook needs to send it. */
export interface DueDelivery {
  id: string;
  webhook_id: number;
  event_id: string;
  event_type: string;
  payload: string;
  is_test: boolean;
  /** Attempts made, this one included. */
  attempt_count: number;
  max_attempts: number;
  url: string;
  http_method: string;
  content_type: string;
  custom_headers: Record<string, string>;
  timeout_ms: number;
  verify_ssl: boolean;
  secret_encrypted: string;
  consecutive_failures: number;
  last_delivery_at: Date | null;
}

/** A delivery and its webhook, as the queue knows them. */
export interface DeliveryRef {
  id: string;
  webhook_id: number;
}

/** Outbox events as columns: event ids, codes, companies, and each payload's text around the webhook id. */
export type EventColumns = [string[], string[], (number | null)[], string[], string[]];

export interface Success {
  id: string;
  status: number | null;
  durationMs: number;
}

/** How an attempt ended, as stored on its delivery. */
export interface AttemptResult {
  status: number | null;
  error?: string | null;
  durationMs: number;
}

export interface DeliveryActivityRow {
  pending: Date | null;
  newest: Date | null;
}

const COLUMNS = `id, webhook_id, event_type, event_id, status, attempt_count, max_attempts, response_status,
  error_message, duration_ms, next_attempt_at, completed_at, created_at`;

const errorText = (r: AttemptResult) => r.error?.slice(0, 1000) ?? null;

/** The delivery records of a client database (`public.webhook_deliveries`). */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly db: TenantDatabase) {}

  @SqlExample((c) => [c.manager, 7, 50])
  listOf(m: EntityManager, webhookId: number, limit: number): Promise<DeliveryRow[]> {
    return m.query(
      `SELECT ${COLUMNS} FROM public.webhook_deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2`,
      [webhookId, limit],
    );
  }

  @SqlExample([41])
  async find(id: number): Promise<DeliveryRow | undefined> {
    const [row]: DeliveryRow[] = await this.db.run((m) =>
      m.query(`SELECT ${COLUMNS} FROM public.webhook_deliveries WHERE id = $1`, [id]),
    );
    return row;
  }

  /** A FAILED delivery gets one more attempt, due now; undefined when it is not FAILED. */
  @SqlExample((c) => [c.manager, 41])
  async retry(tx: EntityManager, id: number): Promise<DeliveryRow | undefined> {
    const [updated] = await modifyReturning<DeliveryRow>(
      tx,
      `UPDATE public.webhook_deliveries
            SET status = 'PENDING', max_attempts = attempt_count + 1, next_attempt_at = clock_timestamp(),
                completed_at = NULL, updated_at = clock_timestamp()
          WHERE id = $1 AND status = 'FAILED' RETURNING ${COLUMNS}`,
      [id],
    );
    return updated;
  }

  /** The test ping's delivery (one attempt, sent at once rather than queued). */
  @SqlExample((c) => [c.manager, 7, '2f1c7d2e-6a8b-4f51-9a0e-3c2b1d4e5f60', '{"event":"webhook.ping"}'])
  async insertPing(tx: EntityManager, webhookId: number, eventId: string, payload: string): Promise<number> {
    const [row]: { id: string }[] = await tx.query(
      `INSERT INTO public.webhook_deliveries (webhook_id, event_id, event_type, payload, is_test, max_attempts, next_attempt_at)
         VALUES ($1, $2, 'webhook.ping', $3, true, 1, NULL) RETURNING id`,
      [webhookId, eventId, payload],
    );
    return Number(row.id);
  }

  /**
   * One delivery per event and active webhook subscribed to its code (or `*`), of its company or
   * system-wide: the subscribers are matched in the insert itself, no read of the webhooks first.
   */
  @SqlExample((c) => [
    c.manager,
    [['2f1c7d2e-6a8b-4f51-9a0e-3c2b1d4e5f60'], ['unit.created'], [2], ['{"webhookId":'], ['}']],
  ])
  insertForEvents(tx: EntityManager, events: EventColumns): Promise<DeliveryRef[]> {
    return tx.query(
      `INSERT INTO public.webhook_deliveries (webhook_id, event_id, event_type, payload, max_attempts, next_attempt_at)
       SELECT w.id, x.e, x.t, x.h || w.id || x.tl, w.max_retries + 1, clock_timestamp()
         FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[]) WITH ORDINALITY AS x(e, t, c, h, tl, n)
         JOIN public.webhooks w
           ON w.is_active
          AND (x.t = ANY (w.events) OR '*' = ANY (w.events))
          AND (w.company_id IS NULL OR w.company_id = x.c)
        ORDER BY x.n, w.id
       RETURNING id, webhook_id`,
      events,
    );
  }

  /**
   * Starts an attempt of each delivery that is PENDING or RETRYING and whose webhook is active (or
   * that is a test ping): counts it and answers it with its webhook.
   */
  @SqlExample([MASTER_CLIENT, [41, 42]])
  async startAttempts(client: TenantClient, ids: readonly number[]): Promise<DueDelivery[]> {
    const ds = await this.db.forClient(client);
    return modifyReturning<DueDelivery>(
      ds.manager,
      `UPDATE public.webhook_deliveries d SET attempt_count = d.attempt_count + 1, updated_at = clock_timestamp()
         FROM public.webhooks w
        WHERE d.id = ANY($1::bigint[]) AND w.id = d.webhook_id AND d.status IN ('PENDING', 'RETRYING')
          AND (w.is_active OR d.is_test)
        RETURNING d.id, d.webhook_id, d.event_id, d.event_type, d.payload, d.is_test, d.attempt_count, d.max_attempts,
                  w.url, w.http_method, w.content_type, w.custom_headers, w.timeout_ms, w.verify_ssl,
                  w.secret_encrypted, w.consecutive_failures, w.last_delivery_at`,
      [ids],
    );
  }

  /** Attempts that succeeded: SUCCESS, their status and duration, in one statement. */
  @SqlExample([MASTER_CLIENT, [{ id: '41', status: 200, durationMs: 85 }]])
  async succeeded(client: TenantClient, rows: readonly Success[]): Promise<void> {
    const ds = await this.db.forClient(client);
    await ds.manager.query(
      `UPDATE public.webhook_deliveries d
          SET status = 'SUCCESS', response_status = x.status,
              error_message = NULL, duration_ms = x.duration_ms, next_attempt_at = NULL,
              completed_at = clock_timestamp(), updated_at = clock_timestamp()
         FROM unnest($1::bigint[], $2::int[], $3::int[]) AS x(id, status, duration_ms)
        WHERE d.id = x.id`,
      [rows.map((r) => r.id), rows.map((r) => r.status), rows.map((r) => r.durationMs)],
    );
  }

  /** A delivery whose webhook was disabled meanwhile ends FAILED; answers whether it did. */
  @SqlExample((c) => [c.manager, 41])
  async failDisabled(m: EntityManager, id: number): Promise<boolean> {
    const rows = await modifyReturning(
      m,
      `UPDATE public.webhook_deliveries d
          SET status = 'FAILED', error_message = 'Webhook is disabled', next_attempt_at = NULL,
              completed_at = clock_timestamp(), updated_at = clock_timestamp()
         FROM public.webhooks w
        WHERE d.id = $1 AND w.id = d.webhook_id AND d.status IN ('PENDING', 'RETRYING')
          AND NOT w.is_active AND NOT d.is_test
        RETURNING d.id`,
      [id],
    );
    return rows.length > 0;
  }

  /** A failed attempt to be retried after `delayMs`. */
  @SqlExample((c) => [c.manager, '41', { status: 503, error: 'HTTP 503', durationMs: 120 }, 60000])
  async retrying(m: EntityManager, id: string, result: AttemptResult, delayMs: number): Promise<void> {
    await m.query(
      `UPDATE public.webhook_deliveries
            SET status = 'RETRYING', response_status = $2, error_message = $3, duration_ms = $4,
                next_attempt_at = clock_timestamp() + make_interval(secs => $5::float8 / 1000), updated_at = clock_timestamp()
          WHERE id = $1`,
      [id, result.status, errorText(result), result.durationMs, delayMs],
    );
  }

  /** The last attempt failed: FAILED for good. */
  @SqlExample((c) => [c.manager, '41', { status: null, error: 'Request timed out', durationMs: 30000 }])
  async failed(m: EntityManager, id: string, result: AttemptResult): Promise<void> {
    await m.query(
      `UPDATE public.webhook_deliveries
          SET status = 'FAILED', response_status = $2, error_message = $3, duration_ms = $4,
              next_attempt_at = NULL, completed_at = clock_timestamp(), updated_at = clock_timestamp()
        WHERE id = $1`,
      [id, result.status, errorText(result), result.durationMs],
    );
  }

  /** Pending deliveries of the current client overdue by `overdueMs` (at most 1000, oldest first). */
  @SqlExample([60000])
  async overdue(overdueMs: number): Promise<DeliveryRef[]> {
    const ds = await this.db.dataSource();
    return ds.manager.query(
      `SELECT id, webhook_id FROM public.webhook_deliveries
        WHERE status IN ('PENDING', 'RETRYING')
          AND next_attempt_at <= clock_timestamp() - make_interval(secs => $1::float8 / 1000)
        ORDER BY next_attempt_at LIMIT 1000`,
      [overdueMs],
    );
  }

  /** Whether the current client has any delivery still to attempt. */
  @SqlExample()
  async anyPending(): Promise<boolean> {
    const ds = await this.db.dataSource();
    const rows: unknown[] = await ds.manager.query(
      `SELECT 1 FROM public.webhook_deliveries WHERE status IN ('PENDING', 'RETRYING') LIMIT 1`,
    );
    return rows.length > 0;
  }

  /** Deletes up to `batch` records older than `days`; answers how many went. */
  @SqlExample([MASTER_CLIENT, 30, 5000])
  async purgeBatch(client: TenantClient, days: number, batch: number): Promise<number> {
    const ds = await this.db.forClient(client);
    const [, count] = await ds.manager.query(
      `DELETE FROM public.webhook_deliveries WHERE id IN (
           SELECT id FROM public.webhook_deliveries
            WHERE created_at < now() - make_interval(days => $1) LIMIT ${batch})`,
      [days],
    );
    return Number(count ?? 0);
  }

  /** When the client's newest pending delivery and newest delivery were created. */
  @SqlExample([MASTER_CLIENT])
  async activity(client: TenantClient): Promise<DeliveryActivityRow> {
    const ds = await this.db.forClient(client);
    const [row]: DeliveryActivityRow[] = await ds.manager.query(
      `SELECT (SELECT max(created_at) FROM public.webhook_deliveries WHERE status IN ('PENDING', 'RETRYING')) AS pending,
              (SELECT max(created_at) FROM public.webhook_deliveries) AS newest`,
    );
    return row;
  }
}
