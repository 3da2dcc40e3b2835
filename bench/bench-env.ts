import { createHash } from 'node:crypto';
import globalSetup from '../test/support/global-setup';
import globalTeardown, { dropRunKeys } from '../test/support/global-teardown';

/** Benches reuse the test harness: a run prefix, a migrated template, and a full clean-up at the end. */
export async function withBenchRun<T>(work: () => Promise<T>): Promise<T> {
  const own = !process.env.TEST_RUN_PREFIX;
  if (own) await globalSetup();
  try {
    return await work();
  } finally {
    // A cluster of the bench's own is removed whole afterwards: dropping its databases one by one
    // (two a second at 1,000 clients) would only hold the bench lock longer.
    if (own) await (process.env.BENCH_DISPOSABLE_CLUSTER ? dropRunKeys() : globalTeardown());
  }
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** Secrets of the app under bench: NODE_ENV=production refuses to start without them (or with weak ones). */
export const BENCH_SECRETS = {
  JWT_SECRET: 'bench-jwt-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
  // The same 32 well-mixed bytes in every bench process (replicas share the master database).
  ENCRYPTION_KEY: createHash('sha256').update('svc-platform bench encryption key').digest('hex'),
};

/** `node dist-bench/bench/<name>.js`: one bench in a run of its own, exiting with its outcome. */
export function runAlone(work: () => Promise<void>): void {
  void withBenchRun(work).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
