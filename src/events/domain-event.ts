/** A change a module publishes: `{resource}.{action}` plus the entity it concerns. */
export interface DomainEvent {
  /** Event code, e.g. `unit.created`. */
  event: string;
  /** Entity type name carried as `data.type` (e.g. `Unit`). */
  entityType: string;
  entityId: number;
  /** Company the entity belongs to; routes the event to that company's webhooks (and system-wide ones). */
  companyId: number | null;
  attributes: Record<string, unknown>;
  /** Prior values of changed fields on updates, null on create, undefined (absent) on delete. */
  previous?: Record<string, unknown> | null;
  metadata?: Record<string, unknown>;
}

/** An outbox row as the relay hands it to its consumers. */
export interface OutboxEvent {
  id: string;
  eventId: string;
  event: string;
  entityType: string;
  entityId: number | null;
  companyId: number | null;
  attributes: Record<string, unknown>;
  previous: Record<string, unknown> | null | undefined;
  metadata: Record<string, unknown> | null;
  occurredAt: Date;
}

/** `previous` of an update event: the old value of each changed field. */
export function previousOf(changes: Record<string, { old: unknown; new: unknown }>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(changes).map(([field, { old }]) => [field, old]));
}
