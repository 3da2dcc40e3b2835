import './observability/tracing-start';
import 'reflect-metadata';
import { redactText } from './common/logging/redact';
import { ConfigError, loadConfig } from './config/app-config';
import { openStartingProbes } from './starting-probes';

async function main() {
  const { PORT } = loadConfig();
  // A fixed port answers liveness from the first moment; a random one (0) has nothing to probe yet.
  const starting = PORT ? await openStartingProbes(PORT) : undefined;
  // Loaded after the port answers: requiring the application's modules alone takes seconds.
  const [{ Logger }, { createApp }, { AppConfig }, { shutDownGracefully }] = await Promise.all([
    import('@nestjs/common'),
    import('./app.factory'),
    import('./config/app-config'),
    import('./observability/shutdown/graceful-shutdown'),
  ]);
  const app = await createApp();
  const config = app.get(AppConfig);
  shutDownGracefully(app, 'api');
  await starting?.close();
  await app.listen(config.PORT);
  const { port } = app.getHttpServer().address() as { port: number };
  new Logger('Main').log(`Listening on port ${port}`);
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Start failed: ${redactText(String((err as Error).stack ?? err))}\n`);
  }
  process.exit(1);
});
