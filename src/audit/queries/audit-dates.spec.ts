import { AppError } from '../../common/errors/app-error';
import { parseAuditDate, parseRange } from './audit-dates';

describe('audit dates', () => {
  it('reads a date as a UTC day and a date-time without offset as UTC', () => {
    expect(parseAuditDate('2026-02-28')?.date.toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(parseAuditDate('2026-02-28T10:15')?.date.toISOString()).toBe('2026-02-28T10:15:00.000Z');
    expect(parseAuditDate('2026-02-28T10:15:00+02:00')?.date.toISOString()).toBe('2026-02-28T08:15:00.000Z');
  });

  it('refuses impossible or malformed dates', () => {
    for (const bad of ['2026-02-30', '2026-13-01', '26-01-01', '2026-01-01T25:00', 'yesterday']) {
      expect(parseAuditDate(bad)).toBeNull();
    }
  });

  it('makes a date-only end include the whole day', () => {
    const range = parseRange('2026-01-01', '2026-01-01');
    expect(range.to?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(range.endExclusive).toBe(true);
  });

  it('refuses a start after the end with a validation error', () => {
    expect(() => parseRange('2026-01-02', '2026-01-01')).toThrow(AppError);
    let caught: unknown;
    try {
      parseRange('2026-01-02T00:00:00Z', '2026-01-01T23:59:59Z');
    } catch (err) {
      caught = err;
    }
    expect((caught as AppError | undefined)?.code).toBe('VALIDATION_ERROR');
  });
});
