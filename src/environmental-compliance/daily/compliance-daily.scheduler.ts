import { Injectable } from '@nestjs/common';
import { PerClientRunner } from '../../tenancy/per-client-runner';
import { PeriodicClientRound } from '../../tenancy/periodic-client-round';
import { ComplianceDailyJobs } from './compliance-daily-jobs';

const DAY_MS = 86_400_000;
/** How often a replica looks whether today's round has run; the runner's lock lets one per day through. */
const TICK_MS = 3_600_000;

/** Runs the daily compliance work once a day per client, on one replica (Redis lock per day). */
@Injectable()
export class ComplianceDailyScheduler extends PeriodicClientRound {
  constructor(
    runner: PerClientRunner,
    private readonly jobs: ComplianceDailyJobs,
  ) {
    super(runner, 'compliance-daily');
  }

  protected intervalMs() {
    return TICK_MS;
  }

  protected slotMs() {
    return DAY_MS;
  }

  protected runFor() {
    return this.jobs.runHere();
  }
}
