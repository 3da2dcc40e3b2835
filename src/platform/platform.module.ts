import { DynamicModule, Module, Provider } from '@nestjs/common';
import { settingsProvider } from '../config/config.module';
import { BackgroundMigrator } from './background-migrator';
import { BackgroundMigrationsRepository } from '../database/background-migrations.repository';
import { ClientMigrationMetrics } from './client-migration-metrics';
import { ClientMigrationProcessor } from './client-migration.processor';
import { ClientMigrationQueue, LegacyClientMigrationQueue } from './client-migration.queue';
import { ClientMigrator } from './client-migrator';
import { MigratedVersions } from './migrated-versions';
import { MigrationSummary } from './migration-summary';
import { ClientsController } from './clients.controller';
import { ClientMoveProcessor } from './client-move.processor';
import { ClientMoveQueue } from './client-move.queue';
import { ClientMoveLock } from './client-move-lock';
import { ClientMover } from './client-mover';
import { ClientMovesController } from './client-moves.controller';
import { ClientMovesService } from './client-moves.service';
import { MoveJobs } from './move-jobs';
import { CopyMove } from './copy-move';
import { FormerDatabases } from './former-databases';
import { MoveModes } from './move-mode';
import { WriteGuards } from './write-guards';
import { MoveSweeper } from './move-sweeper';
import { OnlineMove } from './online-move';
import { ReplicationRepository } from '../database/replication.repository';
import { DatabaseServersController } from './database-servers.controller';
import { DatabaseServersService } from './database-servers.service';
import { DatabaseServerUsage } from './database-server-usage';
import { ServerDrainProcessor } from './server-drain.processor';
import { ServerDrainQueue } from './server-drain.queue';
import { ServerDrainer } from './server-drainer';
import { ServerDrains } from './server-drains';
import { ServerDrainsService } from './server-drains.service';
import { MigrationJobs } from './migration-jobs';
import { MigrationJobsController } from './migration-jobs.controller';
import { PlatformSettings } from './platform.settings';
import { StartupMigrations } from './startup-migrations';
import { ClientsService } from './clients.service';
import { PlatformBootstrap } from './platform-bootstrap';
import { FirstAdminsRepository } from './first-admins.repository';
import { ProvisioningProcessor } from './provisioning.processor';
import { ProvisioningQueue } from './provisioning.queue';

@Module({})
export class PlatformModule {
  static register(options: { processors: boolean }): DynamicModule {
    const processors: Provider[] = options.processors
      ? [
          ProvisioningProcessor,
          ClientMigrationProcessor,
          ClientMoveProcessor,
          MoveSweeper,
          ServerDrainProcessor,
        ]
      : [];
    return {
      module: PlatformModule,
      global: true,
      controllers: [
        ClientsController,
        MigrationJobsController,
        DatabaseServersController,
        ClientMovesController,
      ],
      providers: [
        settingsProvider(PlatformSettings),
        ProvisioningQueue,
        ClientMigrationQueue,
        LegacyClientMigrationQueue,
        ClientMigrationMetrics,
        ClientMigrator,
        BackgroundMigrator,
        BackgroundMigrationsRepository,
        MigratedVersions,
        MigrationSummary,
        MigrationJobs,
        StartupMigrations,
        ClientsService,
        DatabaseServersService,
        DatabaseServerUsage,
        ServerDrainQueue,
        ServerDrains,
        ServerDrainer,
        ServerDrainsService,
        ClientMoveQueue,
        ClientMover,
        ClientMoveLock,
        ClientMovesService,
        MoveJobs,
        MoveModes,
        OnlineMove,
        CopyMove,
        WriteGuards,
        FormerDatabases,
        ReplicationRepository,
        PlatformBootstrap,
        FirstAdminsRepository,
        ...processors,
      ],
      exports: [MigrationSummary],
    };
  }
}
