import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { OperationsSettings } from '../operations.settings';
import { DrainState } from './drain-state';
import { JobQueues } from './job-queues';

const HARD_STOP_MARGIN_MS = 10_000;

/**
 * On SIGTERM (or SIGINT): readiness answers 503 at once, the listener stops accepting connections,
 * a worker stops taking jobs and waits for its running ones, requests in flight are answered, all
 * bounded by SHUTDOWN_GRACE_SECONDS; then the application closes its pools, queues and Redis and
 * the process exits. A job still running at the deadline is left to its lock: Bull hands it to
 * another worker once the lock expires.
 */
export function shutDownGracefully(app: NestExpressApplication, role: 'api' | 'worker'): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    drainAndClose(app, role, signal).then(
      (clean) => process.exit(clean ? 0 : 1),
      (err: Error) => {
        new Logger('Shutdown').error(`Shutdown failed: ${err.message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

async function drainAndClose(
  app: NestExpressApplication,
  role: 'api' | 'worker',
  signal: NodeJS.Signals,
): Promise<boolean> {
  const logger = new Logger('Shutdown');
  const graceMs = app.get(OperationsSettings).SHUTDOWN_GRACE_SECONDS * 1000;
  const deadline = Date.now() + graceMs;
  const left = () => Math.max(0, deadline - Date.now());
  setTimeout(() => process.exit(1), graceMs + HARD_STOP_MARGIN_MS).unref();

  const drain = app.get(DrainState);
  drain.startDraining();
  const server = app.getHttpServer();
  server.close();
  server.closeIdleConnections();
  logger.log(`${signal}: draining (${drain.requestsInFlight} requests in flight, ${graceMs} ms at most)`);

  let jobsDone = true;
  if (role === 'worker') {
    const queues = app.get(JobQueues);
    logger.log(
      `Taking no more jobs from ${queues
        .all()
        .map((q) => q.name)
        .join(', ')}`,
    );
    jobsDone = await queues.stopTakingJobs(left());
  }
  const requestsDone = await drain.whenIdle(left());
  server.closeAllConnections();
  if (!jobsDone) {
    logger.warn(
      'Jobs still running at the deadline: leaving them to their locks (another worker retries them)',
    );
    return false;
  }
  if (!requestsDone) logger.warn(`${drain.requestsInFlight} requests still in flight at the deadline`);
  await app.close();
  logger.log('Stopped');
  return requestsDone;
}
