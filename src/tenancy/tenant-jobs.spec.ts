import { PRODUCTION_SCHEMA, tenantContext } from './tenant-context';
import { runAsTenant, tenantJobData } from './tenant-jobs';

describe('tenant jobs', () => {
  const client = { identifier: 'acme', id: 7, isMaster: false };
  const store = {
    requestId: 'req-1',
    client,
    schema: 'sandbox_qa',
    principal: { userId: 1 } as never,
    ip: '10.0.0.1',
  };

  it('captures client, schema and request id at enqueue and re-enters them in the worker', () => {
    const data = tenantContext.run(store, () => tenantJobData());
    expect(data).toEqual({ client, schema: 'sandbox_qa', requestId: 'req-1' });
    const viaRedis = JSON.parse(JSON.stringify({ tenant: data })) as { tenant: typeof data };
    expect(tenantContext.peek()).toBeUndefined();
    const seen = runAsTenant(viaRedis.tenant, () => tenantContext.get());
    expect(seen).toEqual({ requestId: 'req-1', client, schema: 'sandbox_qa' });
  });

  it('needs a tenant context to capture one', () => {
    expect(() => tenantJobData()).toThrow(/No tenant context/);
  });

  it('refuses a job whose schema is not production or a sandbox', () => {
    const bad = { client, requestId: 'r', schema: 'pg_catalog' };
    expect(() => runAsTenant(bad, () => 1)).toThrow(/invalid schema/);
    expect(runAsTenant({ ...bad, schema: PRODUCTION_SCHEMA }, () => 1)).toBe(1);
  });
});
