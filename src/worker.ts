import './observability/tracing-start';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { createApp } from './app.factory';
import { redactText } from './common/logging/redact';
import { AppConfig, ConfigError } from './config/app-config';
import { shutDownGracefully } from './observability/shutdown/graceful-shutdown';

/** What a worker answers on its port; the API itself is served by the API processes. */
const PROBE_PATHS = ['/management/health', '/metrics'];

function probesOnly(req: Request, res: Response, next: NextFunction) {
  if (PROBE_PATHS.some((path) => req.path === path || req.path.startsWith(`${path}/`))) return next();
  res.status(404).json({
    error: { status: 404, code: 'NOT_FOUND', message: 'A worker serves only health and metrics' },
  });
}

/**
 * A queue worker: the same application with its Bull processors, serving only health and metrics
 * on WORKER_PORT (default 3001) for its probes.
 */
async function main() {
  const app = await createApp(
    { ...process.env, QUEUE_PROCESSORS_ENABLED: 'true', SWAGGER_ENABLED: 'false' },
    { queueDashboard: false },
  );
  app.use(probesOnly);
  shutDownGracefully(app, 'worker');
  await app.listen(app.get(AppConfig).WORKER_PORT);
  const { port } = app.getHttpServer().address() as { port: number };
  new Logger('Worker').log(`Worker running; probes on port ${port}`);
}

main().catch((err) => {
  process.stderr.write(
    err instanceof ConfigError
      ? `${err.message}\n`
      : `Start failed: ${redactText(String((err as Error).stack ?? err))}\n`,
  );
  process.exit(1);
});
