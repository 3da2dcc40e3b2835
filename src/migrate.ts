import './observability/tracing-start';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { redactText } from './common/logging/redact';
import { ConfigError } from './config/app-config';
import { AppLogger } from './observability/logging/app-logger';
import { BackgroundMigrator } from './platform/background-migrator';
import { StartupMigrations } from './platform/startup-migrations';

/**
 * Applies every pending migration, then exits: the master database's sets and, unless
 * MULTITENANCY_DATABASE_ENABLED is false, each active client's. Run before a rollout (the
 * Kubernetes migration Job, `npm run migrate`).
 */
async function main() {
  const env = {
    ...process.env,
    QUEUE_PROCESSORS_ENABLED: 'false',
    MULTITENANCY_DATABASE_AUTO_MIGRATE: 'true',
  };
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(env), { bufferLogs: true });
  app.useLogger(app.get(AppLogger));
  // Back-fills run after the rollout (a migration job), once no previous release writes.
  app.get(BackgroundMigrator).holdOff();
  await app.init();
  // Client migrations run in the background of an application; this job waits for their first pass.
  const failed = await app.get(StartupMigrations).settled();
  await app.close();
  if (failed) throw new Error(`${failed} client database(s) could not be migrated (see the log above)`);
  new Logger('Migrate').log('Migrations applied');
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(
      err instanceof ConfigError
        ? `${err.message}\n`
        : `Migration failed: ${redactText(String((err as Error).stack ?? err))}\n`,
    );
    process.exit(1);
  },
);
