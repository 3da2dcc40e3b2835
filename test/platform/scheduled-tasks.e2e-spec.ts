import { PerClientRunner } from '../../src/tenancy/per-client-runner';
import { tenantContext } from '../../src/tenancy/tenant-context';
import { TenantDatabase } from '../../src/tenancy/tenant-database';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, provisionClient, TestApp } from '../support/test-app';

describe('per-client scheduled tasks', () => {
  let sink: SmtpSink;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    first = await bootApp({ env: { SMTP_URL: sink.url } });
    second = await bootApp({ masterDatabase: first.masterDatabase, env: { SMTP_URL: sink.url } });
    await provisionClient(first, sink, 'north');
    await provisionClient(first, sink, 'south');
    await new Promise((r) => setTimeout(r, 200)); // the second replica hears of the new clients
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await sink?.stop();
  });

  it('runs once per active client across replicas, inside that client database', async () => {
    const seen: string[] = [];
    const task = async (app: TestApp) =>
      app.app.get(PerClientRunner).runForEachClient('count-units', 60_000, async (client) => {
        const db = app.app.get(TenantDatabase);
        const [row] = await db.run((m) => m.query('SELECT current_database() AS name'));
        expect(tenantContext.get().client.identifier).toBe(client.identifier);
        seen.push(`${client.identifier}:${String(row.name).endsWith(client.identifier)}`);
      });
    const [a, b] = await Promise.all([task(first), task(second)]);
    expect([...a, ...b].sort()).toEqual(['north', 'south']);
    expect(seen.sort()).toEqual(['north:true', 'south:true']);
    // Same period again: nothing left to do.
    expect(await task(first)).toEqual([]);
  });
});
