import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PerClientRunner } from '../../tenancy/per-client-runner';
import { ComplianceDailyJobs } from './compliance-daily-jobs';

const DAY_MS = 86_400_000;
/** How often a replica looks whether today's round has run; the runner's lock lets one per day through. */
const TICK_MS = 3_600_000;

/** Runs the daily compliance work once a day per client, on one replica (Redis lock per day). */
@Injectable()
export class ComplianceDailyScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ComplianceDailyScheduler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<string[]>;

  constructor(
    private readonly runner: PerClientRunner,
    private readonly jobs: ComplianceDailyJobs,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => {
      this.running ??= this.tick().finally(() => (this.running = undefined));
    }, TICK_MS);
    this.timer.unref();
  }

  async onModuleDestroy() {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One round over every active client; returns the identifiers this replica handled. */
  async tick(): Promise<string[]> {
    try {
      return await this.runner.runForEachClient('compliance-daily', DAY_MS, async () => {
        await this.jobs.runHere();
      });
    } catch (err) {
      this.logger.error(`Compliance daily round failed: ${(err as Error).message}`);
      return [];
    }
  }
}
