import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { MetricsService } from '../observability/metrics/metrics.service';
import { MigratingClients } from '../tenancy/migrating-clients';

/** Client migration metrics in the app's registry. */
@Injectable()
export class ClientMigrationMetrics {
  readonly failures: Counter;

  constructor(metrics: MetricsService, migrating: MigratingClients) {
    const registers = [metrics.registry];
    new Gauge({
      name: 'clients_migrating',
      help: 'Clients whose migrations are running or pending in this process',
      registers,
      collect() {
        this.set(migrating.size);
      },
    });
    this.failures = new Counter({
      name: 'client_migration_failures_total',
      help: 'Client database migrations that failed (at start or in a migration job)',
      registers,
    });
  }
}
