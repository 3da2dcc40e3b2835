import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ClientRegistry } from '../tenancy/client-registry';
import { BackgroundMigrator } from './background-migrator';
import { ClientMigrationJob, ClientMigrationQueue } from './client-migration.queue';
import { ClientMigrator } from './client-migrator';
import { ClientMigrationProgress, MigrationJobs } from './migration-jobs';
import { PlatformSettings } from './platform.settings';
import { publicFailure } from './public-failure';

/** Runs one client's part of a migration job and records its progress. */
@Injectable()
export class ClientMigrationProcessor implements OnModuleInit {
  private readonly logger = new Logger(ClientMigrationProcessor.name);

  constructor(
    private readonly queue: ClientMigrationQueue,
    private readonly jobs: MigrationJobs,
    private readonly migrator: ClientMigrator,
    private readonly registry: ClientRegistry,
    private readonly settings: PlatformSettings,
    private readonly background: BackgroundMigrator,
  ) {}

  onModuleInit() {
    this.queue.process(this.settings.CLIENT_MIGRATION_CONCURRENCY, (job) => this.run(job));
  }

  private async run({ jobId, identifier }: ClientMigrationJob) {
    const startedAt = new Date().toISOString();
    const progress: ClientMigrationProgress = {
      identifier,
      status: 'running',
      migrationsRun: [],
      startedAt,
      finishedAt: null,
    };
    await this.jobs.record(jobId, progress);
    const client = this.registry.findByIdentifier(identifier);
    try {
      if (!client) throw new Error('client not found');
      const migrationsRun = await this.migrator.migrate(client, () =>
        this.jobs.record(jobId, { ...progress, waitingFor: 'move' }),
      );
      const migrated = { ...progress, migrationsRun };
      await this.jobs.record(jobId, migrated);
      // The schema is current and the client served: the back-fills run beside its traffic.
      const background = await this.background.run(client, (backgroundMigrations) =>
        this.jobs.record(jobId, { ...migrated, backgroundMigrations }),
      );
      if (background.skipped) this.background.start(client);
      const done = {
        ...migrated,
        backgroundMigrations: background.states,
        ...(background.skipped ? { backgroundSkipped: background.skipped } : {}),
        finishedAt: now(),
      };
      if (background.failed) {
        const failed = background.states.find((s) => s.error);
        const error = `Background migration ${failed?.name} failed in ${failed?.schema}: ${failed?.error}`;
        await this.jobs.record(jobId, { ...done, status: 'failed', error });
      } else {
        await this.jobs.record(jobId, { ...done, status: 'done' });
      }
    } catch (err) {
      this.logger.error(`Migrating ${identifier} (job ${jobId}) failed: ${(err as Error).message}`);
      const error = client ? publicFailure(err) : 'Client not found';
      await this.jobs.record(jobId, { ...progress, status: 'failed', error, finishedAt: now() });
    }
  }
}

const now = () => new Date().toISOString();
