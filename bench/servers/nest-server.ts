import pg from 'pg';
import { createApp } from '../../src/app.factory';
import { AuditWriter } from '../../src/audit-trail/audit-writer';

/**
 * The real application in a child process, for the benches. Counts the SQL statements its pools
 * send, so a bench can show how many round trips a request costs, and can turn the audit writer
 * into a no-op (`audit-off`, `audit-on`) to measure what recording costs.
 */
let statements = 0;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

async function main() {
  const env = JSON.parse(process.env.BENCH_APP_ENV ?? '{}') as NodeJS.ProcessEnv;
  const app = await createApp(env);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const writer = app.get(AuditWriter);
  const record = writer.record.bind(writer);
  process.on('message', (message: { type: string }) => {
    if (message.type === 'statements') process.send?.({ type: 'statements', statements });
    if (message.type === 'cpu') process.send?.({ type: 'cpu', ...process.cpuUsage() });
    if (message.type === 'audit-off' || message.type === 'audit-on') {
      writer.record = message.type === 'audit-on' ? record : async () => undefined;
      process.send?.({ type: message.type });
    }
    if (message.type === 'stop') {
      setTimeout(() => process.exit(0), 2000).unref();
      void app.close().finally(() => process.exit(0));
    }
  });
  process.send?.({ type: 'ready', port: address.port });
}

void main();
