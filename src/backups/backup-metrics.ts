import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsService } from '../observability/metrics/metrics.service';
import { BackupsRepository } from './backups.repository';

export type BackupOutcome = 'completed' | 'failed';
export type RestoreOutcome = 'done' | 'failed' | 'corrupt';

/** Backup and restore metrics in the app's registry (closed label sets, no client label). */
@Injectable()
export class BackupMetrics {
  readonly backups: Counter<'outcome'>;
  readonly restores: Counter<'outcome' | 'target'>;
  readonly backupBytes: Counter;
  readonly backupSeconds: Histogram<'outcome'>;
  readonly restoreSeconds: Histogram<'target'>;

  constructor(metrics: MetricsService, rows: BackupsRepository) {
    const registers = [metrics.registry];
    const buckets = [1, 5, 15, 60, 300, 900, 3600, 4 * 3600];
    this.backups = new Counter({
      name: 'client_backups_total',
      help: 'Client backups finished, by outcome (completed | failed)',
      labelNames: ['outcome'],
      registers,
    });
    this.restores = new Counter({
      name: 'client_restores_total',
      help: 'Client restores finished or refused, by outcome (done | failed | corrupt) and target (in-place | new-client)',
      labelNames: ['outcome', 'target'],
      registers,
    });
    this.backupBytes = new Counter({
      name: 'client_backup_bytes_total',
      help: 'Bytes of completed backup objects written to the backup store',
      registers,
    });
    this.backupSeconds = new Histogram({
      name: 'client_backup_duration_seconds',
      help: 'How long a backup ran, by outcome',
      labelNames: ['outcome'],
      buckets,
      registers,
    });
    this.restoreSeconds = new Histogram({
      name: 'client_restore_duration_seconds',
      help: 'How long a successful restore ran, by target',
      labelNames: ['target'],
      buckets,
      registers,
    });
    new Gauge({
      name: 'client_backup_oldest_newest_completed_age_seconds',
      help: 'Seconds since the newest completed backup of the active client that has waited longest for one',
      registers,
      async collect() {
        this.set(await rows.oldestNewestCompletedAge().catch(() => 0));
      },
    });
  }
}
