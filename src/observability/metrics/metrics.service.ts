import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { TenantPools } from '../../tenancy/tenant-pools';
import { RELEASE } from '../release';

/** One registry per app instance (tests boot several in one process). */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Error answers to callers without a credential: counted here, never written to a tenant database. */
  readonly anonymousErrors: Counter<'status'>;

  constructor(pools: TenantPools) {
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    this.anonymousErrors = new Counter({
      name: 'http_anonymous_errors_total',
      help: 'Error answers (4xx/5xx) to requests without a valid credential, by status',
      labelNames: ['status'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'app_info',
      help: 'Always 1: the release this process runs and the newest master and client migrations it knows',
      labelNames: ['version', 'master_migration', 'client_migration'],
      registers: [this.registry],
    }).set(
      {
        version: RELEASE.version,
        master_migration: RELEASE.masterMigration,
        client_migration: RELEASE.clientMigration,
      },
      1,
    );
    for (const metric of pools.metrics()) this.registry.registerMetric(metric);
    new Gauge({
      name: 'tenant_pools_open',
      help: 'Client databases holding at least one connection here',
      registers: [this.registry],
      collect() {
        this.set(pools.openCount());
      },
    });
    new Gauge({
      name: 'tenant_pool_connections',
      help: 'Client-database connections this process holds (the same as tenant_connections_open)',
      registers: [this.registry],
      collect() {
        this.set(pools.connectionCount());
      },
    });
  }
}
