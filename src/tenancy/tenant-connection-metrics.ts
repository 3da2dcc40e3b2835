import { Counter, Gauge, Histogram, Metric } from 'prom-client';

/**
 * The client-database connection metrics of one app instance, registered by the metrics module
 * (tests boot several instances in one process, so none goes to prom-client's global registry).
 */
export class TenantConnectionMetrics {
  readonly opens = new Counter({
    name: 'tenant_connection_opens_total',
    help: 'Client-database connections opened',
    registers: [],
  });
  readonly evictions = new Counter<'reason'>({
    name: 'tenant_connection_evictions_total',
    help: 'Client-database connections closed while idle: past TENANT_POOL_IDLE_MS (idle) or to make room under TENANT_CONNECTION_CEILING (ceiling)',
    labelNames: ['reason'],
    registers: [],
  });
  readonly waitSeconds = new Histogram({
    name: 'tenant_connection_wait_seconds',
    help: 'Time a unit of work waited for a client-database connection (opening one included)',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [],
  });
  readonly waitsRejected = new Counter({
    name: 'tenant_connection_waits_rejected_total',
    help: "Units of work refused (503) because their client's wait queue was full or the wait timed out",
    registers: [],
  });

  readonly open: Gauge;
  readonly serverOpen: Gauge<'server'>;
  readonly serverBudget: Gauge<'server'>;

  constructor(
    openConnections: () => number,
    perServer: () => { server: string; open: number; budget?: number }[] = () => [],
  ) {
    this.serverOpen = new Gauge<'server'>({
      name: 'tenant_server_connections_open',
      help: "Client-database connections this process holds to each database server's clients (label: the server's id)",
      labelNames: ['server'],
      registers: [],
      collect() {
        this.reset();
        for (const { server, open } of perServer()) this.set({ server }, open);
      },
    });
    this.serverBudget = new Gauge<'server'>({
      name: 'tenant_server_connection_budget',
      help: "The most connections this process may hold to each database server's clients: maxConnections / TENANT_SERVER_PROCESSES (label: the server's id)",
      labelNames: ['server'],
      registers: [],
      collect() {
        this.reset();
        for (const { server, budget } of perServer()) if (budget !== undefined) this.set({ server }, budget);
      },
    });
    this.open = new Gauge({
      name: 'tenant_connections_open',
      help: 'Client-database connections this process holds (opening and closing ones included)',
      registers: [],
      collect() {
        this.set(openConnections());
      },
    });
    this.evictions.inc({ reason: 'idle' }, 0);
    this.evictions.inc({ reason: 'ceiling' }, 0);
  }

  all(): Metric[] {
    return [
      this.open,
      this.opens,
      this.evictions,
      this.waitSeconds,
      this.waitsRejected,
      this.serverOpen,
      this.serverBudget,
    ];
  }
}
