import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { createApp } from './app.factory';
import { shutDownGracefully } from './observability/shutdown/graceful-shutdown';
import type { StartingServer } from './starting-probes';

/** What a worker answers on its port; the API itself is served by the API processes. */
const PROBE_PATHS = ['/management/health', '/management/info', '/metrics'];

function probesOnly(req: Request, res: Response, next: NextFunction) {
  if (PROBE_PATHS.some((path) => req.path === path || req.path.startsWith(`${path}/`))) return next();
  res.status(404).json({
    error: { status: 404, code: 'NOT_FOUND', message: 'A worker serves only health, info and metrics' },
  });
}

/** Builds the API on the start-up's socket and hands the socket over once it is up. */
export async function serveApi(starting: StartingServer) {
  const app = await createApp(process.env, { server: starting.server });
  shutDownGracefully(app, 'api');
  await takeOver(app, starting);
  new Logger('Main').log(`Listening on port ${portOf(starting)}`);
}

/**
 * A queue worker: the same application with its Bull processors, serving only health and metrics
 * on WORKER_PORT (default 3001) for its probes.
 */
export async function serveWorker(starting: StartingServer) {
  const app = await createApp(
    { ...process.env, QUEUE_PROCESSORS_ENABLED: 'true', SWAGGER_ENABLED: 'false' },
    { queueDashboard: false, server: starting.server },
  );
  app.use(probesOnly);
  shutDownGracefully(app, 'worker');
  await takeOver(app, starting);
  new Logger('Worker').log(`Worker running; probes on port ${portOf(starting)}`);
}

async function takeOver(app: Awaited<ReturnType<typeof createApp>>, starting: StartingServer) {
  await app.init();
  app.flushLogs();
  starting.handOver(app.getHttpAdapter().getInstance());
}

const portOf = (starting: StartingServer) => (starting.server.address() as { port: number }).port;
