import Bull from 'bull';
import { AppConfig } from '../config/app-config';
import { redisConnectionOptions } from '../redis/redis-connection';
import { isSandboxSchema } from './sandbox-naming';
import { PRODUCTION_SCHEMA, TenantClient, tenantContext } from './tenant-context';

/** The tenant a job was queued under, carried in its data and entered again by the worker. */
export interface JobTenant {
  client: TenantClient;
  schema: string;
  requestId: string;
}

/** Job data that carries its tenant. */
export interface TenantJob {
  tenant: JobTenant;
}

/** Captures the current tenant for a job being queued; throws outside a tenant context. */
export function tenantJobData(): JobTenant {
  const { client, schema, requestId } = tenantContext.get();
  return { client, schema, requestId };
}

/** Whether data read back from Redis has a tenant's shape and a schema a tenant may have. */
export function isJobTenant(value: unknown): value is JobTenant {
  const tenant = value as Partial<JobTenant> | null;
  return (
    typeof tenant?.client?.identifier === 'string' &&
    typeof tenant.schema === 'string' &&
    (tenant.schema === PRODUCTION_SCHEMA || isSandboxSchema(tenant.schema))
  );
}

/**
 * Runs a job's work inside the tenant it was queued under. Job data comes back from Redis, so
 * the schema is checked again before it is trusted.
 */
export function runAsTenant<T>(tenant: JobTenant, work: () => T): T {
  const { client, schema, requestId } = tenant;
  if (!isJobTenant(tenant)) throw new Error(`Job carries an invalid schema: ${schema}`);
  const store = {
    requestId,
    client: { identifier: client.identifier, id: client.id, isMaster: client.isMaster },
    schema,
  };
  return tenantContext.run(store, work);
}

/**
 * A Bull queue on the application's Redis, under its key prefix. Every queue of the application is
 * opened this way (no @nestjs/bull), through TenantQueue: the provider owning it adds jobs in every
 * process, and a processor provider, registered only where QUEUE_PROCESSORS_ENABLED, calls `process()`.
 */
export function openJobQueue<T>(
  config: AppConfig,
  name: string,
  settings?: Bull.AdvancedSettings,
): Bull.Queue<T> {
  const queue = new Bull<T>(name, {
    redis: redisConnectionOptions(config),
    prefix: `${config.REDIS_PREFIX}:bull`,
    settings,
  });
  queue.on('error', () => undefined);
  return queue;
}

/** The part of a Bull queue that waits for its next job (not in Bull's types). */
interface BlockingClient {
  bclientInitialized?: boolean;
  bclient?: { disconnect(): void };
}

/**
 * Closes a queue once the jobs this process runs are finished. Bull's own close asks the
 * connection that waits for the next job to QUIT, which Redis answers only when that wait ends:
 * every queue that processes jobs took half a second (Bull's timeout) to close. Cutting that
 * connection first aborts the wait at once; the running jobs are still awaited.
 */
export async function closeJobQueue(queue: Bull.Queue<unknown>): Promise<void> {
  const blocking = queue as unknown as BlockingClient;
  if (blocking.bclientInitialized) blocking.bclient?.disconnect();
  await queue.close().catch(() => undefined);
}
