import { Client as PgClient } from 'pg';
import { DataSource, MigrationInterface } from 'typeorm';
import { CommitInsertsSubscriber, sendUnnamedStatements } from './commit-inserts.repository';
import { SnakeNamingStrategy } from './snake-naming.strategy';
import { QueryFailureLogger } from './query-failure-logger';

export interface DbTarget {
  host: string;
  port: number;
  database: string;
  username: string;
  password?: string;
}

export function parseDatabaseUrl(url: string): DbTarget {
  const parsed = new URL(url);
  return {
    host: decodeURIComponent(parsed.hostname) || '127.0.0.1',
    port: Number(parsed.port || 5432),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'postgres',
    username: decodeURIComponent(parsed.username || 'postgres'),
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
  };
}

export interface DataSourceSettings {
  entities: Function[];
  poolMax: number;
  /**
   * Schema of a migration connection (its search_path and migrations table). Application pools leave it
   * unset: TypeORM would then qualify every table with it and defeat the per-transaction search_path.
   */
  schema?: string;
  idleTimeoutMs?: number;
  migrations?: (new () => MigrationInterface)[];
  migrationsTableName?: string;
  applicationName?: string;
  /** Connects through a transaction pooler: no startup options (see pooling.ts). */
  pooled?: boolean;
}

export function createDataSource(target: DbTarget, settings: DataSourceSettings): DataSource {
  const schema = settings.schema ?? 'public';
  if (settings.pooled && schema !== 'public')
    throw new Error(`A pooled connection cannot use schema ${schema}`);
  const dataSource = new DataSource({
    type: 'postgres',
    host: target.host,
    port: target.port,
    username: target.username,
    password: target.password,
    database: target.database,
    ...(settings.schema ? { schema } : {}),
    entities: settings.entities,
    migrations: settings.migrations ?? [],
    subscribers: [CommitInsertsSubscriber],
    migrationsTableName: settings.migrationsTableName ?? 'migrations',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    logging: ['error'],
    logger: new QueryFailureLogger(),
    poolSize: settings.poolMax,
    extra: {
      max: settings.poolMax,
      idleTimeoutMillis: settings.idleTimeoutMs ?? 30000,
      connectionTimeoutMillis: 10000,
      application_name: settings.applicationName ?? 'svc-platform',
      // Set at connection start-up, so it costs no round trip; never changed at session level later.
      ...searchPathOptions(schema, settings.pooled ?? false),
    },
  });
  if (settings.pooled) sendUnnamedStatements(dataSource);
  return dataSource;
}

/**
 * The startup `options` that put `schema` first on a connection's search_path, or nothing through a
 * pooler. Without them the server's default (`"$user", public`) applies, which is `public`: no schema
 * is named after a login role (client roles are named like their databases, sandbox schemas start
 * with `sandbox_`), and sandbox work sets its search_path per transaction.
 */
export function searchPathOptions(schema: string, pooled: boolean): { options?: string } {
  if (pooled) return {};
  return { options: `-c search_path=${schema === 'public' ? 'public' : `${schema},public`}` };
}

/** Runs one statement on a short-lived connection (CREATE DATABASE cannot run inside a pool transaction). */
export async function withAdminConnection<T>(
  target: DbTarget,
  fn: (client: PgClient) => Promise<T>,
  connectTimeoutMs?: number,
): Promise<T> {
  const client = new PgClient({
    host: target.host,
    port: target.port,
    user: target.username,
    password: target.password,
    database: target.database,
    connectionTimeoutMillis: connectTimeoutMs,
  });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
