import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ClientMovesRepository } from '../tenancy/client-moves.repository';
import { MASTER_CLIENT, PRODUCTION_SCHEMA, tenantContext } from '../tenancy/tenant-context';
import { ClientMoveQueue } from './client-move.queue';
import { PlatformSettings } from './platform.settings';

/** How often at most it looks: every 5 s, or twice per lease when leases are shorter. */
const SWEEP_MS = 5_000;
/** A queued move no worker has started for this long is queued again (its queue entry was lost). */
const QUEUED_MS = 10 * 60_000;

/**
 * Finds the moves nobody works on any more (running, or queued long ago, and no live lease on
 * their client: the worker stopped) and queues them to be taken over: a worker resumes what is
 * past the switch and undoes what is not. Runs in worker processes.
 */
@Injectable()
export class MoveSweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(MoveSweeper.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly moves: ClientMovesRepository,
    private readonly queue: ClientMoveQueue,
    private readonly settings: PlatformSettings,
  ) {}

  onModuleInit() {
    this.timer = setInterval(
      () => void this.sweep(),
      Math.min(SWEEP_MS, this.settings.CLIENT_LEASE_TTL_MS / 2),
    );
    this.timer.unref();
  }

  onModuleDestroy() {
    clearInterval(this.timer);
  }

  /** Platform work: it runs in the master's context, as a request to the master would. */
  sweep(): Promise<void> {
    const store = { requestId: 'move-sweeper', client: MASTER_CLIENT, schema: PRODUCTION_SCHEMA };
    return tenantContext.run(store, () => this.sweepHere());
  }

  private async sweepHere(): Promise<void> {
    try {
      for (const jobId of await this.moves.abandoned(this.settings.CLIENT_LEASE_TTL_MS, QUEUED_MS)) {
        this.logger.warn(`Move ${jobId} has no worker any more; queueing its take-over`);
        await this.queue.enqueue({ kind: 'move', jobId, takeOver: true });
      }
    } catch (err) {
      this.logger.warn(`Looking for abandoned moves failed: ${(err as Error).message}`);
    }
  }
}
