import './observability/tracing-start';
import 'reflect-metadata';
import { redactText } from './common/logging/redact';
import { ConfigError, loadConfig } from './config/app-config';
import { loadInSteps } from './load-in-steps';
import { openStartingServer } from './starting-probes';

/**
 * Opens the port first and keeps it: the application's modules load in steps behind it (in one
 * require they would hold the event loop for over a second), then the application answers on it.
 */
async function main() {
  const starting = await openStartingServer(loadConfig().PORT);
  const { serveApi } = await loadInSteps<typeof import('./serve-app')>(require.resolve('./serve-app'));
  await serveApi(starting);
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Start failed: ${redactText(String((err as Error).stack ?? err))}\n`);
  }
  process.exit(1);
});
