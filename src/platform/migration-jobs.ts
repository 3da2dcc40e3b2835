import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { BackgroundMigrationState } from '../database/background-migration-runner';
import { RedisService } from '../redis/redis.service';
import type { BackgroundSkip } from './background-migrator';

export const CLIENT_MIGRATION_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ClientMigrationState = (typeof CLIENT_MIGRATION_STATES)[number];
export type MigrationJobScope = 'all' | 'client';

export interface ClientMigrationProgress {
  identifier: string;
  status: ClientMigrationState;
  migrationsRun: string[];
  /** The client's background data migrations, per schema, once its schema migrations ran. */
  backgroundMigrations?: BackgroundMigrationState[];
  /** Set when the background migrations were left for later: the client is being moved, or another process runs them. */
  backgroundSkipped?: BackgroundSkip;
  error?: string;
  /** Set while the client's migration waits for a move of the client to finish. */
  waitingFor?: 'move';
  startedAt: string | null;
  finishedAt: string | null;
}

export interface MigrationJobView {
  jobId: string;
  scope: MigrationJobScope;
  status: 'running' | 'finished';
  startedAt: string;
  finishedAt: string | null;
  counts: Record<'total' | 'migrated' | ClientMigrationState, number>;
  clients: ClientMigrationProgress[];
}

interface JobMeta {
  scope: MigrationJobScope;
  startedAt: string;
}

/** A job's progress is kept this long after its last change. */
const KEEP_SECONDS = 7 * 24 * 3600;
const META = 'meta';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The progress of migration jobs, one Redis hash per job (`meta` and one field per client), so every
 * replica sees it and each client's step writes only its own field.
 */
@Injectable()
export class MigrationJobs {
  constructor(private readonly redis: RedisService) {}

  /** Records a new job with every client queued; returns its id. */
  async create(scope: MigrationJobScope, identifiers: string[]): Promise<string> {
    const jobId = randomUUID();
    const meta: JobMeta = { scope, startedAt: new Date().toISOString() };
    const fields: Record<string, string> = { [META]: JSON.stringify(meta) };
    for (const identifier of identifiers) {
      fields[`c:${identifier}`] = JSON.stringify(queued(identifier));
    }
    await this.redis.client
      .multi()
      .hset(this.key(jobId), fields)
      .expire(this.key(jobId), KEEP_SECONDS)
      .exec();
    return jobId;
  }

  async record(jobId: string, progress: ClientMigrationProgress): Promise<void> {
    const key = this.key(jobId);
    await this.redis.client
      .multi()
      .hset(key, `c:${progress.identifier}`, JSON.stringify(progress))
      .expire(key, KEEP_SECONDS)
      .exec();
  }

  async discard(jobId: string): Promise<void> {
    await this.redis.client.del(this.key(jobId));
  }

  /** The job's progress, or null when there is no such job (or it is older than a week). */
  async get(jobId: string): Promise<MigrationJobView | null> {
    if (!UUID.test(jobId)) return null;
    const fields = await this.redis.client.hgetall(this.key(jobId));
    if (!fields[META]) return null;
    const meta = JSON.parse(fields[META]) as JobMeta;
    const clients = Object.entries(fields)
      .filter(([field]) => field.startsWith('c:'))
      .map(([, value]) => JSON.parse(value) as ClientMigrationProgress)
      .sort((a, b) => a.identifier.localeCompare(b.identifier));
    const counts = { total: clients.length, migrated: 0, queued: 0, running: 0, done: 0, failed: 0 };
    for (const client of clients) {
      counts[client.status]++;
      if (client.migrationsRun.length) counts.migrated++;
    }
    const finished = counts.queued + counts.running === 0;
    const finishedAt = finished
      ? clients.reduce(
          (last, c) => (c.finishedAt && c.finishedAt > last ? c.finishedAt : last),
          meta.startedAt,
        )
      : null;
    return {
      jobId,
      scope: meta.scope,
      status: finished ? 'finished' : 'running',
      startedAt: meta.startedAt,
      finishedAt,
      counts,
      clients,
    };
  }

  private key(jobId: string): string {
    return this.redis.key('migration-jobs', jobId);
  }
}

function queued(identifier: string): ClientMigrationProgress {
  return { identifier, status: 'queued', migrationsRun: [], startedAt: null, finishedAt: null };
}
