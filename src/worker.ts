import './observability/tracing-start';
import 'reflect-metadata';
import { redactText } from './common/logging/redact';
import { ConfigError, loadConfig } from './config/app-config';
import { loadInSteps } from './load-in-steps';
import { openStartingServer } from './starting-probes';

/** A queue worker; its probes port answers from the start as the API's does (see main.ts). */
async function main() {
  const starting = await openStartingServer(loadConfig().WORKER_PORT);
  const { serveWorker } = await loadInSteps<typeof import('./serve-app')>(require.resolve('./serve-app'));
  await serveWorker(starting);
}

main().catch((err) => {
  process.stderr.write(
    err instanceof ConfigError
      ? `${err.message}\n`
      : `Start failed: ${redactText(String((err as Error).stack ?? err))}\n`,
  );
  process.exit(1);
});
