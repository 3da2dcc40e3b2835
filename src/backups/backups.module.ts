import { DynamicModule, Module, Provider } from '@nestjs/common';
import { settingsProvider } from '../config/config.module';
import { ConfigError } from '../config/load-settings';
import { BackupKeys } from './backup-keys';
import { BackupMetrics } from './backup-metrics';
import { BackupQueue, BackupScheduleQueue, RestoreQueue } from './backup-queues';
import { BackupRestorer } from './backup-restorer';
import { BackupsRepository } from './backups.repository';
import { BackupRunner } from './backup-runner';
import { BackupScheduler } from './backup-scheduler';
import { BackupVerifier } from './backup-verifier';
import { BackupsController } from './backups.controller';
import { BackupsProcessor } from './backups.processor';
import { BackupsService } from './backups.service';
import { BackupsSettings } from './backups.settings';
import { RestoreDatabasesRepository } from './restore-databases.repository';
import { RestoreJobs } from './restore-jobs';
import { BACKUP_STORE } from './store/backup-store';
import { LocalBackupStore } from './store/local-backup-store';
import { S3BackupStore } from './store/s3-backup-store';

const storeProvider: Provider = {
  provide: BACKUP_STORE,
  inject: [BackupsSettings],
  useFactory: (s: BackupsSettings) => {
    if (s.BACKUP_STORE === 'local') return new LocalBackupStore(s.BACKUP_DIR);
    if (!s.BACKUP_S3_BUCKET) {
      throw new ConfigError('Invalid configuration:\n  BACKUP_S3_BUCKET: required when BACKUP_STORE=s3');
    }
    return new S3BackupStore({
      endpoint: s.BACKUP_S3_ENDPOINT,
      bucket: s.BACKUP_S3_BUCKET,
      region: s.BACKUP_S3_REGION,
      accessKeyId: s.BACKUP_S3_ACCESS_KEY_ID,
      secretAccessKey: s.BACKUP_S3_SECRET_ACCESS_KEY,
      forcePathStyle: s.BACKUP_S3_FORCE_PATH_STYLE,
    });
  },
};

/** Backups and restores of client databases (see docs/backups.md). */
@Module({})
export class BackupsModule {
  static register(options: { processors: boolean }): DynamicModule {
    return {
      module: BackupsModule,
      controllers: [BackupsController],
      providers: [
        settingsProvider(BackupsSettings),
        storeProvider,
        BackupKeys,
        BackupMetrics,
        BackupsRepository,
        BackupQueue,
        RestoreQueue,
        BackupScheduleQueue,
        RestoreJobs,
        RestoreDatabasesRepository,
        BackupVerifier,
        BackupRunner,
        BackupRestorer,
        BackupScheduler,
        BackupsService,
        ...(options.processors ? [BackupsProcessor] : []),
      ],
    };
  }
}
