import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { createDataSource, parseDatabaseUrl } from '../../src/database/data-source-factory';
import { migrationName } from '../../src/database/migration-runner';
import { databaseUrl } from './test-env';

/** The newest client migration's name. */
export const NEWEST_CLIENT_MIGRATION = migrationName(CLIENT_MIGRATIONS[CLIENT_MIGRATIONS.length - 1]);

/**
 * Puts a client database one migration behind, whichever the newest client migration is: TypeORM
 * runs its `down()` and deletes its row from the migrations table.
 */
export async function undoNewestClientMigration(database: string): Promise<void> {
  const dataSource = createDataSource(parseDatabaseUrl(databaseUrl(database)), {
    entities: [],
    poolMax: 1,
    migrations: [...CLIENT_MIGRATIONS],
    applicationName: 'test-undo-migration',
  });
  await dataSource.initialize();
  try {
    await dataSource.undoLastMigration({ transaction: 'each' });
    const [newest]: { name: string }[] = await dataSource.query(
      'SELECT name FROM public.migrations ORDER BY timestamp DESC, id DESC LIMIT 1',
    );
    if (newest?.name === NEWEST_CLIENT_MIGRATION) {
      throw new Error(`${database}: ${NEWEST_CLIENT_MIGRATION} is still applied`);
    }
  } finally {
    await dataSource.destroy();
  }
}
