import { backoffMs, retryable, vendorStatus } from './vendor-retry';

describe('vendor retries', () => {
  it('retries busy and failing vendors and calls without an answer, not other 4xx', () => {
    for (const status of [408, 429, 500, 502, 503, 529]) expect(retryable({ status })).toBe(true);
    for (const status of [400, 401, 403, 404, 422]) expect(retryable({ status })).toBe(false);
    expect(retryable(new Error('socket hang up'))).toBe(true);
    expect(retryable({ status_code: 503 })).toBe(true);
    expect(vendorStatus({ status_code: 404 })).toBe(404);
  });

  it('doubles the delay with jitter, at most 10 s', () => {
    for (let i = 0; i < 20; i++) {
      expect(backoffMs(0, 100)).toBeGreaterThanOrEqual(80);
      expect(backoffMs(0, 100)).toBeLessThanOrEqual(120);
      expect(backoffMs(2, 100)).toBeGreaterThanOrEqual(320);
      expect(backoffMs(2, 100)).toBeLessThanOrEqual(480);
      expect(backoffMs(20, 100)).toBeLessThanOrEqual(12000);
    }
  });
});
