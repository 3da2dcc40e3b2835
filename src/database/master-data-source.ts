import { Logger, Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { MASTER_MIGRATIONS } from '../../migrations/master';
import { AppConfig } from '../config/app-config';
import { createDataSource, parseDatabaseUrl, withAdminConnection } from './data-source-factory';
import { ServerAdminRepository } from './server-admin.repository';
import { EntityClasses, TENANT_ENTITIES } from './tenant-entities';
import { migrationBounds, runMigrationSet } from './migration-runner';
import { masterDirectTarget, masterPooled } from './pooling';

/** Internal to src/tenancy and src/database (an ESLint rule keeps it there); see PlatformDatabase. */
export const MASTER_DATA_SOURCE = Symbol('MASTER_DATA_SOURCE');

/**
 * Creates the master database when missing and applies both migration sets to it, over direct
 * connections (DATABASE_DIRECT_URL); the application pool then opens at DATABASE_URL, which may be
 * a transaction pooler.
 */
export async function openMasterDatabase(
  config: AppConfig,
  tenantEntities: EntityClasses,
  masterEntities: EntityClasses,
): Promise<DataSource> {
  const logger = new Logger('MasterDatabase');
  const target = masterDirectTarget(config);
  // Before the application's providers exist: the repository has no dependencies of its own.
  const serverAdmin = new ServerAdminRepository();
  await withAdminConnection({ ...target, database: 'postgres' }, async (admin) => {
    if (!(await serverAdmin.databaseExists(admin, target.database))) {
      logger.log(`Creating master database ${target.database}`);
      await serverAdmin.createDatabase(admin, target.database).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // created concurrently by another replica
      });
    }
    // Only the application's own login may connect (clients' roles must not see the master); every
    // start, so a master created by other means (a template, a restore) is closed too.
    await serverAdmin.restrictDatabaseToCurrentUser(admin, target.database);
  });
  const bounds = migrationBounds(config);
  await runMigrationSet(target, MASTER_MIGRATIONS, { tableName: 'platform_migrations', bounds });
  await runMigrationSet(target, CLIENT_MIGRATIONS, { bounds });
  const dataSource = createDataSource(parseDatabaseUrl(config.DATABASE_URL), {
    entities: [...tenantEntities, ...masterEntities],
    poolMax: config.DATABASE_POOL_MAX,
    applicationName: 'svc-platform:master',
    pooled: masterPooled(config),
  });
  return dataSource.initialize();
}

/** The master DataSource, with the tenant entities and the master database's own. */
export function masterDataSourceProvider(masterEntities: EntityClasses): Provider {
  return {
    provide: MASTER_DATA_SOURCE,
    inject: [AppConfig, TENANT_ENTITIES],
    useFactory: (config: AppConfig, tenantEntities: EntityClasses) =>
      openMasterDatabase(config, tenantEntities, masterEntities),
  };
}
