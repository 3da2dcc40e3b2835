import { retryDelay } from './migration-runner';

describe('retryDelay of a migration that timed out on a lock', () => {
  it('doubles from 1 s, jittered within the upper half, and stops growing at 30 s', () => {
    const ranges = [
      [1, 500, 1000],
      [2, 1000, 2000],
      [3, 2000, 4000],
      [5, 8000, 16000],
      [6, 15000, 30000],
      [12, 15000, 30000],
    ];
    for (const [attempt, low, high] of ranges) {
      const delays = Array.from({ length: 200 }, () => retryDelay(attempt));
      expect(Math.min(...delays)).toBeGreaterThanOrEqual(low);
      expect(Math.max(...delays)).toBeLessThanOrEqual(high);
      // Jittered: replicas that gave up together do not come back together.
      expect(new Set(delays).size).toBeGreaterThan(50);
    }
  });
});
