import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { BackupQueue, BackupScheduleQueue, RestoreQueue } from './backup-queues';
import { BackupRestorer } from './backup-restorer';
import { BackupRunner } from './backup-runner';
import { BackupScheduler } from './backup-scheduler';
import { BackupsSettings } from './backups.settings';

/** Restores a worker runs at the same time: each writes a whole database. */
const RESTORE_CONCURRENCY = 1;

/**
 * A worker's share of backups (BACKUP_CONCURRENCY at a time), restores and scheduled runs; it
 * also sweeps, at start and every three heartbeats, the backups and restores of stopped workers.
 */
@Injectable()
export class BackupsProcessor implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(BackupsProcessor.name);
  private sweeper?: NodeJS.Timeout;
  private sweeping?: Promise<void>;

  constructor(
    private readonly backups: BackupQueue,
    private readonly restores: RestoreQueue,
    private readonly schedule: BackupScheduleQueue,
    private readonly runner: BackupRunner,
    private readonly restorer: BackupRestorer,
    private readonly scheduler: BackupScheduler,
    private readonly settings: BackupsSettings,
  ) {}

  onModuleInit() {
    this.backups.process(this.settings.BACKUP_CONCURRENCY, ({ backupId }) => this.runner.run(backupId));
    this.restores.process(RESTORE_CONCURRENCY, ({ jobId }) => this.restorer.run(jobId));
    this.schedule.process(1, () => this.scheduler.runSlot());
  }

  async onApplicationBootstrap() {
    await this.schedule.schedule(this.settings.BACKUP_SCHEDULE);
    this.sweep();
    this.sweeper = setInterval(() => this.sweep(), 3 * this.settings.BACKUP_HEARTBEAT_MS);
    this.sweeper.unref();
  }

  async onModuleDestroy() {
    clearInterval(this.sweeper);
    await this.sweeping;
  }

  private sweep() {
    this.sweeping ??= this.scheduler
      .sweep()
      .catch((err: Error) => this.logger.error(`Sweeping abandoned backups: ${err.message}`))
      .finally(() => (this.sweeping = undefined));
  }
}
