import { OutboxEvent } from '../events/domain-event';

export const MAX_PAYLOAD_BYTES = 1024 * 1024;
export const API_VERSION = '1.0';
export const PING_MESSAGE = 'This is a test delivery from the platform webhook service.';

/** Fields kept when an entity is too large for the 1 MB payload. */
const ESSENTIAL = [
  'id',
  'name',
  'title',
  'code',
  'status',
  'type',
  'companyId',
  'unitId',
  'createdAt',
  'updatedAt',
];

const essential = (o: Record<string, unknown> | null | undefined) =>
  o ? Object.fromEntries(Object.entries(o).filter(([k]) => ESSENTIAL.includes(k))) : o;

interface Payload {
  eventId: string;
  event: string;
  timestamp: string;
  webhookId: number;
  apiVersion: string;
  data: { id: number | null; type: string; attributes: Record<string, unknown>; previous?: unknown };
  metadata: Record<string, unknown> | null;
}

/** The body of section 6 for one event and webhook, capped at 1 MB. */
export function buildPayload(event: OutboxEvent, webhookId: number, client: string): string {
  const payload: Payload = {
    eventId: event.eventId,
    event: event.event,
    timestamp: new Date(event.occurredAt).toISOString(),
    webhookId,
    apiVersion: API_VERSION,
    data: { id: event.entityId, type: event.entityType, attributes: event.attributes },
    metadata: { ...(event.metadata ?? {}), client, companyId: event.companyId },
  };
  if (event.previous !== undefined) payload.data.previous = event.previous;
  let body = JSON.stringify(payload);
  if (Buffer.byteLength(body) <= MAX_PAYLOAD_BYTES) return body;
  payload.data.attributes = essential(payload.data.attributes) ?? {};
  if (payload.data.previous)
    payload.data.previous = essential(payload.data.previous as Record<string, unknown>);
  payload.metadata = { ...payload.metadata, truncated: true };
  body = JSON.stringify(payload);
  if (Buffer.byteLength(body) <= MAX_PAYLOAD_BYTES) return body;
  payload.data.attributes = { id: event.entityId };
  if (payload.data.previous) payload.data.previous = null;
  return JSON.stringify(payload);
}

/** The widest webhook id (int4): a payload split around its id is measured against the cap with it. */
const WIDEST_ID = 2147483647;

/**
 * The body of `buildPayload` split around the webhook's id, for the database to join the two halves
 * with each subscribed webhook's id (`head || id || tail`). The 1 MB cap is checked with the widest
 * id, so a body within a few bytes of the cap may be trimmed where `buildPayload` would not.
 */
export function payloadAround(event: OutboxEvent, client: string): { head: string; tail: string } {
  const body = buildPayload(event, WIDEST_ID, client);
  const { eventId, event: code } = event;
  const timestamp = new Date(event.occurredAt).toISOString();
  const head = `${JSON.stringify({ eventId, event: code, timestamp }).slice(0, -1)},"webhookId":`;
  const idAt = head.length + String(WIDEST_ID).length;
  if (!body.startsWith(`${head}${WIDEST_ID},`)) throw new Error(`Unexpected payload layout for ${eventId}`);
  return { head, tail: body.slice(idAt) };
}

export function buildPing(webhookId: number, name: string, client: string, now = new Date()): Payload {
  return {
    eventId: `ping-${now.getTime()}`,
    event: 'webhook.ping',
    timestamp: now.toISOString(),
    webhookId,
    apiVersion: API_VERSION,
    data: {
      id: webhookId,
      type: 'WebhookTest',
      attributes: { message: PING_MESSAGE, webhookName: name },
      previous: null,
    },
    metadata: { client, test: true },
  };
}
