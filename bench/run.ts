import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { withBenchRun } from './bench-env';
import { benchHttp } from './http';
import { benchPools } from './pools';

/** `npm run bench`: every bench in one run, each printing its figures beside its baseline. */
async function main() {
  await withBenchRun(async () => {
    await benchHttp();
    await benchPools();
    for (const name of [
      'tenants/load',
      'identity',
      'public-flood',
      'audit',
      'webhooks',
      'tenants/outbox',
      'compliance',
      'cms',
      'cms-directus',
      'ai',
      'documents',
      'search-ranking',
      'documents/pages',
      'ocr-fairness',
      'untrusted',
      'tenants/startup',
      'upgrade/rolling',
      'moves',
    ]) {
      const file = join(__dirname, `${name}.js`);
      if (!existsSync(file)) continue;
      const bench = (await import(file)) as { main?: () => Promise<void> };
      await bench.main?.();
    }
  });
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
