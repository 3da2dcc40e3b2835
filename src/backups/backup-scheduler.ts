import { Inject, Injectable, Logger } from '@nestjs/common';
import { BackupRestorer } from './backup-restorer';
import { BackupsRepository } from './backups.repository';
import { BackupRunner } from './backup-runner';
import { BackupsService } from './backups.service';
import { BackupsSettings } from './backups.settings';
import { BACKUP_STORE, BackupStore } from './store/backup-store';

/**
 * One scheduled run (a slot of BACKUP_SCHEDULE, run by one worker): a backup of every active client,
 * their starts spread evenly over BACKUP_SPREAD_SECONDS, the clients whose newest backup is oldest
 * first; then the backups past BACKUP_RETENTION_DAYS are deleted, each client's newest COMPLETED
 * one kept whatever its age.
 */
@Injectable()
export class BackupScheduler {
  private readonly logger = new Logger(BackupScheduler.name);

  constructor(
    private readonly rows: BackupsRepository,
    private readonly backups: BackupsService,
    private readonly runner: BackupRunner,
    private readonly restorer: BackupRestorer,
    private readonly settings: BackupsSettings,
    @Inject(BACKUP_STORE) private readonly store: BackupStore,
  ) {}

  async runSlot(): Promise<{ queued: number; deleted: number }> {
    await this.sweep();
    const clients = await this.rows.clientsByOldestBackup();
    const spreadMs = this.settings.BACKUP_SPREAD_SECONDS * 1000;
    for (const [i, clientId] of clients.entries()) {
      await this.backups.schedule(clientId, Math.floor((i * spreadMs) / clients.length));
    }
    const deleted = await this.applyRetention();
    this.logger.log(`Scheduled ${clients.length} backup(s); deleted ${deleted} past retention`);
    return { queued: clients.length, deleted };
  }

  /** Backups and restores whose worker stopped are finished (marked failed, leftovers removed). */
  async sweep(): Promise<void> {
    await this.runner.failAbandoned();
    await this.restorer.failAbandoned();
  }

  async applyRetention(): Promise<number> {
    let deleted = 0;
    for (const backup of await this.rows.expired(this.settings.BACKUP_RETENTION_DAYS)) {
      if (!(await this.rows.remove(backup.id))) continue;
      await this.store.remove(backup.objectKey).catch((err: Error) => {
        this.logger.error(`Removing the object of expired backup ${backup.id}: ${err.message}`);
      });
      deleted++;
    }
    return deleted;
  }
}
