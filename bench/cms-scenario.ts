import { performance } from 'node:perf_hooks';

/** Sequential samples per latency figure (after 20 warm-up requests). */
export const SAMPLES = Number(process.env.BENCH_CMS_SAMPLES ?? 300);

/** The 10-field type both custom-table benches build (ours and, beside it, Directus's). */
export const ASSETS = {
  collectionName: 'bench_assets',
  attributes: {
    code: { type: 'uid', unique: true },
    name: { type: 'string', maxLength: 120 },
    description: { type: 'text' },
    capacity: { type: 'integer', min: 0 },
    weight: { type: 'float' },
    price: { type: 'decimal' },
    active: { type: 'boolean' },
    installedOn: { type: 'date' },
    level: { type: 'enumeration', enum: ['LOW', 'MEDIUM', 'HIGH'] },
    extra: { type: 'json' },
  },
};

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** Times of `SAMPLES` sequential runs of `work`, after 20 warm-up runs. */
export async function timed(work: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 20; i++) await work(i);
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const start = performance.now();
    await work(i);
    times.push(performance.now() - start);
  }
  return times;
}
