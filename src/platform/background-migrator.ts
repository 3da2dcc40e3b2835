import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import pLimit from 'p-limit';
import { BACKGROUND_MIGRATIONS } from '../../migrations/background';
import { AppConfig } from '../config/app-config';
import { BackgroundMigrationState, runBackgroundMigrations } from '../database/background-migration-runner';
import { BackgroundMigrationsRepository } from '../database/background-migrations.repository';
import { DbTarget, withAdminConnection } from '../database/data-source-factory';
import { migrationBounds } from '../database/migration-runner';
import { masterDirectTarget } from '../database/pooling';
import { ClientDatabases } from '../tenancy/client-databases';
import { ClientMovesRepository } from '../tenancy/client-moves.repository';
import { ClientSchemasRepository } from '../tenancy/client-schemas.repository';
import { Client } from '../tenancy/entities/client.entity';
import { SANDBOX_SCHEMA_LIKE } from '../tenancy/sandbox-naming';
import { PlatformSettings } from './platform.settings';
import { publicFailure } from './public-failure';

/** A client moved meanwhile (or a failure) is tried again after this, doubling up to the last. */
const FIRST_RETRY_MS = 30_000;
const LAST_RETRY_MS = 600_000;

export const BACKGROUND_SKIPS = ['move', 'busy'] as const;
export type BackgroundSkip = (typeof BACKGROUND_SKIPS)[number];

export interface ClientBackgroundRun {
  /** Every schema's background migrations, production first; `error` as the API may show it. */
  states: BackgroundMigrationState[];
  /**
   * Left for later (the process tries again): `move`, the client is being moved; `busy`, another
   * process runs them right now.
   */
  skipped?: BackgroundSkip;
  failed?: boolean;
  /** The process began to stop: the run ended after a batch, and the next one resumes there. */
  interrupted?: boolean;
}

/**
 * Runs a client's pending background migrations (migrations/background) after its schema migrations,
 * schema by schema, batch by batch (BACKGROUND_MIGRATION_BATCH_SIZE rows, BACKGROUND_MIGRATION_PAUSE_MS
 * between batches), without the client's lease: the client is served meanwhile. A client with a move
 * queued or running is left alone (checked before each batch), and so is a schema another process is
 * working on; both are tried again later.
 */
@Injectable()
export class BackgroundMigrator implements OnModuleDestroy {
  private readonly logger = new Logger(BackgroundMigrator.name);
  private readonly limit: pLimit.Limit;
  private readonly retries = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;
  private heldOff = false;

  constructor(
    private readonly config: AppConfig,
    private readonly databases: ClientDatabases,
    private readonly schemas: ClientSchemasRepository,
    private readonly moves: ClientMovesRepository,
    private readonly progress: BackgroundMigrationsRepository,
    settings: PlatformSettings,
  ) {
    this.limit = pLimit(settings.CLIENT_MIGRATION_CONCURRENCY);
  }

  /** Runs them now, telling `onProgress` every schema's states after each batch. */
  async run(
    client: Client,
    onProgress?: (states: BackgroundMigrationState[]) => Promise<void>,
  ): Promise<ClientBackgroundRun> {
    if (await this.moves.openFor(client.id)) return { states: [], skipped: 'move' };
    const target = await this.databases.adminTarget(client);
    const schemas = await this.databases.asAdmin(client, (pg) =>
      this.schemas.schemaNames(pg, SANDBOX_SCHEMA_LIKE),
    );
    const moving = async () => ((await this.moves.openFor(client.id)) ? 'move' : null);
    return this.runSchemas(target, schemas, moving, onProgress);
  }

  /**
   * The master database's own, in the background (it runs the client migration set too, in `public`
   * and, without multi-tenancy, in the sandbox schemas): at start; a failure waits for the next start.
   */
  startMaster(): void {
    if (this.heldOff) return;
    const target = masterDirectTarget(this.config);
    const run = this.limit(async () => {
      const schemas = await withAdminConnection(target, (pg) =>
        this.schemas.schemaNames(pg, SANDBOX_SCHEMA_LIKE),
      );
      const result = await this.runSchemas(target, schemas, async () => null);
      if (result.failed) this.logger.error('Background migrations of the master database failed');
    }).catch((err: Error) =>
      this.logger.error(`Background migrations of the master database failed: ${err.message}`),
    );
    this.track(run);
  }

  private async runSchemas(
    target: DbTarget,
    schemaNames: string[],
    moving: () => Promise<'move' | null>,
    onProgress?: (states: BackgroundMigrationState[]) => Promise<void>,
  ): Promise<ClientBackgroundRun> {
    const schemas = schemaNames.sort((a, b) =>
      a === 'public' ? -1 : b === 'public' ? 1 : a.localeCompare(b),
    );
    const states: BackgroundMigrationState[] = [];
    for (const schema of schemas) {
      const before = states.length;
      const run = await runBackgroundMigrations(target, BACKGROUND_MIGRATIONS, this.progress, {
        schema,
        batchSize: this.config.BACKGROUND_MIGRATION_BATCH_SIZE,
        pauseMs: this.config.BACKGROUND_MIGRATION_PAUSE_MS,
        bounds: migrationBounds(this.config),
        stopReason: async () => (this.stopped ? 'stopping' : await moving()),
        onProgress: async (schemaStates) => onProgress?.([...states.slice(0, before), ...schemaStates]),
      });
      states.push(...run.states.map((s) => (s.error ? { ...s, error: publicFailure(run.failure) } : s)));
      if (run.failure) return { states, failed: true };
      if (run.stopped === 'move') return { states, skipped: 'move' };
      if (run.stopped) return { states, interrupted: true };
      if (run.busy) return { states, skipped: 'busy' };
    }
    return { states };
  }

  /**
   * This process starts none in the background (the migration Job: the previous release still
   * serves while it runs, so the back-fills wait for the migration job after the rollout).
   */
  holdOff(): void {
    this.heldOff = true;
  }

  /** Runs them in the background (start-up, provisioning), trying again later when skipped or failed. */
  start(client: Client, attempt = 1): void {
    if (this.stopped || this.heldOff) return;
    const run = this.limit(() => this.run(client)).then(
      (result) => {
        if (result.skipped || result.failed)
          this.retryLater(client, attempt, result.failed ? 'failed' : `skipped (${result.skipped})`);
      },
      (err: Error) => {
        this.logger.error(`Background migrations of ${client.identifier} failed: ${err.message}`);
        this.retryLater(client, attempt, 'failed');
      },
    );
    this.track(run);
  }

  private track(run: Promise<void>) {
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  async onModuleDestroy() {
    this.stopped = true;
    for (const timer of this.retries) clearTimeout(timer);
    this.limit.clearQueue();
    await Promise.allSettled([...this.running]);
  }

  private retryLater(client: Client, attempt: number, why: string) {
    if (this.stopped) return;
    const delay = Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), LAST_RETRY_MS);
    this.logger.warn(
      `Background migrations of ${client.identifier} ${why}; trying again in ${delay / 1000} s`,
    );
    const timer = setTimeout(() => {
      this.retries.delete(timer);
      this.start(client, attempt + 1);
    }, delay);
    timer.unref();
    this.retries.add(timer);
  }
}

/** Why a run leaves its client failed in a migration job (as the API may show it), or null. */
export function backgroundFailure(run: ClientBackgroundRun): string | null {
  if (run.failed) {
    const failed = run.states.find((s) => s.error);
    return `Background migration ${failed?.name} failed in ${failed?.schema}: ${failed?.error}`;
  }
  if (run.interrupted) {
    return 'Background migrations interrupted: the process stopped; the next migration job resumes them';
  }
  return null;
}
