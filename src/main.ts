import './observability/tracing-start';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { redactText } from './common/logging/redact';
import { AppConfig, ConfigError } from './config/app-config';
import { shutDownGracefully } from './observability/shutdown/graceful-shutdown';

async function main() {
  const app = await createApp();
  const config = app.get(AppConfig);
  shutDownGracefully(app, 'api');
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
