import Bull from 'bull';

/** Thrown by a processor to have its job run again after `delayMs` (queues retrying with `retryLater`). */
export class RetryLater extends Error {
  constructor(readonly delayMs: number) {
    super(`retry in ${delayMs} ms`);
  }
}

/** How a queue's failed jobs are tried again. */
export interface JobRetries {
  /** Attempts in all, the first one included. */
  attempts: number;
  /**
   * The wait before the next attempt: a fixed delay, or the delay the processor threw as RetryLater
   * (1 s after any other error). `retryLater` names the Bull backoff strategy, which every queued job
   * stores: jobs already waiting in Redis keep that name, so it must not change.
   */
  backoff?: { fixedMs: number } | { retryLater: string };
}

const retryLaterDelay = (_attempts: number, err: Error) => (err instanceof RetryLater ? err.delayMs : 1000);

/** The job options that make Bull retry as `retries` says. */
export function retryJobOptions({ attempts, backoff }: JobRetries): Bull.JobOptions {
  if (!backoff) return { attempts };
  if ('fixedMs' in backoff) return { attempts, backoff: { type: 'fixed', delay: backoff.fixedMs } };
  return { attempts, backoff: { type: backoff.retryLater } };
}

/** The queue settings a RetryLater backoff needs (its strategy), none otherwise. */
export function retrySettings({ backoff }: JobRetries): Bull.AdvancedSettings {
  if (!backoff || !('retryLater' in backoff)) return {};
  return { backoffStrategies: { [backoff.retryLater]: retryLaterDelay } };
}
