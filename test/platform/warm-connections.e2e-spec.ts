import { makeFleet } from '../../bench/tenants/fleet';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, login, TestApp } from '../support/test-app';

const CLIENTS = 10;

/**
 * A ceiling that holds every active client (10 clients, one connection each, ceiling 10): requests
 * rotating over them keep each client's warm connection. The room kept free near the ceiling must
 * not close the least recently used one, which is the one the rotation needs next, not even right
 * after an eleventh client found the ceiling full.
 */
describe('warm connections when the ceiling holds every active client', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let ids: string[];
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        TENANT_POOL_MAX: '1',
        TENANT_CONNECTION_CEILING: String(CLIENTS),
        CLIENT_CACHE_REFRESH_MS: '300',
        EVENT_RELAY_POLL_MS: '600000',
        EVENT_RELAY_FULL_SCAN_MS: '600000',
      },
    });
    const fleet = await makeFleet(t, sink, CLIENTS + 1, 'warm');
    ids = fleet.identifiers;
    await new Promise((r) => setTimeout(r, 1000)); // the registry picks up the cloned clients
    for (const id of ids)
      tokens.set(id, await login(t, fleet.first.adminEmail, fleet.first.adminPassword, id));
  }, 240_000); // an app or two and a fleet: slow on a loaded machine
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  const metric = async (line: string) =>
    Number(
      new RegExp(`^${line.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(
        (await t.http().get('/metrics')).text,
      )?.[1],
    );

  const units = (id: string) =>
    t
      .http()
      .get('/api/units')
      .set({ 'X-Client-ID': id, Authorization: `Bearer ${tokens.get(id)}` });

  /** Rotates three times over `clients`: answers the connections opened and closed by the ceiling meanwhile. */
  const rotate = async (clients: string[]) => {
    const opens = await metric('tenant_connection_opens_total');
    const evictions = await metric('tenant_connection_evictions_total{reason="ceiling"}');
    for (let round = 0; round < 3; round++)
      for (const id of clients) expect((await units(id)).status).toBe(200);
    return {
      opened: (await metric('tenant_connection_opens_total')) - opens,
      evicted: (await metric('tenant_connection_evictions_total{reason="ceiling"}')) - evictions,
    };
  };

  it('opens each connection once and closes none while requests rotate over all the clients', async () => {
    const fitting = ids.slice(0, CLIENTS);
    for (const id of fitting) expect((await units(id)).status).toBe(200); // every client warm

    expect(await rotate(fitting)).toEqual({ opened: 0, evicted: 0 });
    expect(await metric('tenant_connections_open')).toBe(CLIENTS);
  });

  it("keeps every client's last connection after the ceiling was found full", async () => {
    // The eleventh client finds the ceiling full: the least recently used connection (the first
    // client's) closes to make room, and the ceiling counts as pressed for the next 30 s.
    expect((await units(ids[CLIENTS])).status).toBe(200);
    expect(await metric('tenant_connections_open')).toBe(CLIENTS);

    // Ten connections for the nine clients in use and the eleventh: more than the ceiling keeps free
    // while pressed, but none is a spare, so none closes and none opens.
    expect(await rotate(ids.slice(1, CLIENTS))).toEqual({ opened: 0, evicted: 0 });
  });
});
