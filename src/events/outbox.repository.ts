import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { insertAtCommit } from '../database/commit-inserts.repository';
import { SqlExample } from '../database/sql-example';
import { MASTER_CLIENT, TenantClient } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';
import { DomainEvent, OutboxEvent } from './domain-event';

const OUTBOX_COLUMNS = [
  'event_id',
  'event',
  'entity_type',
  'entity_id',
  'company_id',
  'attributes',
  'previous',
  'metadata',
] as const;

interface OutboxRow {
  id: string;
  event_id: string;
  event: string;
  entity_type: string;
  entity_id: string | null;
  company_id: number | null;
  attributes: Record<string, unknown>;
  previous: { value: Record<string, unknown> | null } | null;
  metadata: Record<string, unknown> | null;
  occurred_at: Date;
  lag_seconds: number;
}

/** A batch taken from the outbox: its events in the order they were written, and how late each is. */
export interface OutboxBatch {
  events: OutboxEvent[];
  lagSeconds: number[];
}

/** The one mapping of an outbox row. */
function toEvent(r: OutboxRow): OutboxEvent {
  return {
    id: r.id,
    eventId: r.event_id,
    event: r.event,
    entityType: r.entity_type,
    entityId: r.entity_id === null ? null : Number(r.entity_id),
    companyId: r.company_id,
    attributes: r.attributes,
    previous: r.previous === null ? undefined : r.previous.value,
    metadata: r.metadata,
    occurredAt: r.occurred_at,
  };
}

const EXAMPLE_EVENT: DomainEvent = {
  event: 'unit.updated',
  entityType: 'Unit',
  entityId: 7,
  companyId: 2,
  attributes: { name: 'Pump 7' },
  previous: { name: 'Pump 6' },
  metadata: { triggeredBy: 3, requestId: 'req-1' },
};

/** The transactional outbox of a client database (`public.event_outbox`). */
@Injectable()
export class OutboxRepository {
  constructor(private readonly db: TenantDatabase) {}

  /**
   * Adds an event to the transaction of `tx`, sent with its other side records just before COMMIT
   * (insertAtCommit), so the change and its event commit or roll back together.
   */
  @SqlExample((c) => [c.manager, '2f1c7d2e-6a8b-4f51-9a0e-3c2b1d4e5f60', EXAMPLE_EVENT])
  insert(tx: EntityManager, eventId: string, event: DomainEvent): Promise<void> {
    return insertAtCommit(tx, 'public.event_outbox', OUTBOX_COLUMNS, [
      eventId,
      event.event,
      event.entityType,
      event.entityId,
      event.companyId,
      JSON.stringify(event.attributes),
      event.previous === undefined ? null : JSON.stringify({ value: event.previous }),
      JSON.stringify(event.metadata ?? {}),
    ]);
  }

  /** Locks and deletes up to `limit` rows (skipping rows another relay holds), answering them in id order. */
  @SqlExample((c) => [c.manager, 100])
  async take(tx: EntityManager, limit: number): Promise<OutboxBatch> {
    // TypeORM answers a DELETE as [rows, count].
    const [rows]: [OutboxRow[], number] = await tx.query(
      `DELETE FROM public.event_outbox
          WHERE id IN (SELECT id FROM public.event_outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
          RETURNING *, extract(epoch FROM clock_timestamp() - occurred_at)::float8 AS lag_seconds`,
      [limit],
    );
    // RETURNING keeps no order: the consumers get the events in the order they were written.
    rows.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    return { events: rows.map(toEvent), lagSeconds: rows.map((r) => r.lag_seconds) };
  }

  /** When the client's oldest waiting event occurred; undefined when its outbox is empty. */
  @SqlExample([MASTER_CLIENT])
  async oldest(client: TenantClient): Promise<Date | undefined> {
    const dataSource = await this.db.forClient(client);
    const [oldest]: { occurred_at: Date }[] = await dataSource.manager.query(
      'SELECT occurred_at FROM public.event_outbox ORDER BY id LIMIT 1',
    );
    return oldest?.occurred_at;
  }
}
