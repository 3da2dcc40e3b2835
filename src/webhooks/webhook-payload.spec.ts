import { OutboxEvent } from '../events/domain-event';
import { buildPayload, payloadAround } from './webhook-payload';

const event: OutboxEvent = {
  id: '7',
  eventId: '0b0e4d5c-6f1a-4a8e-9d3e-2f1f3c1d9a77',
  event: 'unit.created',
  entityType: 'Unit',
  entityId: 12,
  companyId: 3,
  attributes: { name: 'A "quoted" name', webhookId: 99 },
  previous: { name: 'Before' },
  metadata: { requestId: 'r1' },
  occurredAt: new Date('2026-11-26T04:00:00.000Z'),
};

describe('payloadAround', () => {
  it('joins around a webhook id into the payload buildPayload makes', () => {
    const { head, tail } = payloadAround(event, 'acme');
    for (const id of [1, 42, 2147483647]) expect(`${head}${id}${tail}`).toBe(buildPayload(event, id, 'acme'));
  });
});
