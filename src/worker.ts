import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { ConfigError } from './config/app-config';

/**
 * A queue worker: the same application with its Bull processors, serving only health and metrics
 * on WORKER_PORT (default 3001) for its probes.
 */
async function main() {
  const app = await createApp({ ...process.env, QUEUE_PROCESSORS_ENABLED: 'true' });
  const port = Number(process.env.WORKER_PORT ?? 3001);
  await app.listen(port);
  new Logger('Worker').log(`Worker running; probes on port ${port}`);
}

main().catch((err) => {
  process.stderr.write(
    err instanceof ConfigError ? `${err.message}\n` : `Start failed: ${(err as Error).stack ?? err}\n`,
  );
  process.exit(1);
});
