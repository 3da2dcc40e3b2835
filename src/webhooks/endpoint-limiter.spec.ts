import { tenantContext } from '../tenancy/tenant-context';
import { EndpointLimiter } from './endpoint-limiter';
import { WebhookSettings } from './webhook.settings';

describe('EndpointLimiter', () => {
  const limiter = new EndpointLimiter({ WEBHOOK_ENDPOINT_CONCURRENCY: 1 } as WebhookSettings);
  const as = <R>(identifier: string, work: () => R) =>
    tenantContext.run(
      { requestId: 'r', client: { identifier, id: 1, isMaster: false }, schema: 'public' },
      work,
    );

  it("caps each client's webhook on its own: webhook 1 of one client does not hold another's", () => {
    expect(as('acme', () => limiter.tryAcquire(1))).toBe(true);
    expect(as('acme', () => limiter.tryAcquire(1))).toBe(false);
    expect(as('beta', () => limiter.tryAcquire(1))).toBe(true);
    as('acme', () => limiter.release(1));
    expect(as('acme', () => limiter.tryAcquire(1))).toBe(true);
  });
});
