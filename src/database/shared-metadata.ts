import { DataSource } from 'typeorm';
import { createDataSource, DataSourceSettings, DbTarget } from './data-source-factory';
import type { PgPool } from './pg-pool';

/** What a connected PostgresDriver learnt from the server; the same for every database on it. */
const SERVER_FACTS = ['version', 'searchSchema', 'schema', 'isGeneratedColumnsSupported'] as const;

const NOWHERE: DbTarget = { host: '127.0.0.1', port: 0, database: 'none', username: 'none' };

/**
 * Building entity metadata costs about 50 ms of CPU with the tenant entities, and every client
 * database has the same tables: it is built once, on a DataSource that never connects (its driver
 * has no pool, so nothing can run on it by mistake), and lent to each client's DataSource.
 * `connected` is any initialised DataSource on the same server, for the server's version.
 */
export async function buildMetadataTemplate(
  connected: DataSource,
  settings: DataSourceSettings,
): Promise<DataSource> {
  const template = createDataSource(NOWHERE, settings);
  copyServerFacts(connected, template);
  await (template as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  return template;
}

/**
 * A DataSource for one client database that borrows the template's metadata and runs on `pool`:
 * no metadata build and no round trip. Destroying it ends `pool`.
 */
export function dataSourceWithMetadataOf(
  template: DataSource,
  target: DbTarget,
  pool: PgPool,
  settings: DataSourceSettings,
): DataSource {
  const dataSource = createDataSource(target, settings);
  copyServerFacts(template, dataSource);
  Object.assign(dataSource.driver, { master: pool, database: target.database });
  Object.assign(dataSource, {
    entityMetadatas: template.entityMetadatas,
    entityMetadatasMap: template.entityMetadatasMap,
    subscribers: template.subscribers,
    isInitialized: true,
  });
  return dataSource;
}

function copyServerFacts(from: DataSource, to: DataSource): void {
  const source = from.driver as unknown as Record<string, unknown>;
  const target = to.driver as unknown as Record<string, unknown>;
  for (const fact of SERVER_FACTS) target[fact] = source[fact];
}
