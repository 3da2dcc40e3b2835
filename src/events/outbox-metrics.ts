import { Injectable } from '@nestjs/common';
import { Gauge, Histogram } from 'prom-client';
import { MetricsService } from '../observability/metrics/metrics.service';
import { PerClientRunner } from '../tenancy/per-client-runner';
import { OutboxSignals } from './outbox-signals';
import { allTenants } from './tenants';

/** Relay metrics in the app's registry; no tenant label, as there can be thousands of clients. */
@Injectable()
export class OutboxMetrics {
  readonly relayLag: Histogram;

  constructor(metrics: MetricsService, signals: OutboxSignals, runner: PerClientRunner) {
    const registers = [metrics.registry];
    this.relayLag = new Histogram({
      name: 'outbox_relay_lag_seconds',
      help: "Time from an event's commit (its outbox row) to the relay handing it on",
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 900],
      registers,
    });
    new Gauge({
      name: 'outbox_oldest_pending_seconds',
      help: 'Age of the oldest signalled event not yet relayed, among the tenants this process knows of',
      registers,
      async collect() {
        const pending = await signals.pending().catch(() => null);
        if (!pending) return;
        const known = new Set(allTenants(runner).map((t) => t.identifier));
        let oldest = Date.now();
        for (const [tenant, since] of pending) if (known.has(tenant)) oldest = Math.min(oldest, since);
        this.set((Date.now() - oldest) / 1000);
      },
    });
  }
}
