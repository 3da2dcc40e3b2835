import { parseDateTime } from './datetime';

describe('parseDateTime', () => {
  it('reads text without a zone as UTC', () => {
    expect(parseDateTime('2026-03-01T10:30:00').toISOString()).toBe('2026-03-01T10:30:00.000Z');
    expect(parseDateTime('2026-03-01T10:30').toISOString()).toBe('2026-03-01T10:30:00.000Z');
  });

  it('keeps a given zone', () => {
    expect(parseDateTime('2026-03-01T10:30:00+02:00').toISOString()).toBe('2026-03-01T08:30:00.000Z');
    expect(parseDateTime('2026-03-01T10:30:00.5Z').toISOString()).toBe('2026-03-01T10:30:00.500Z');
  });

  it('reads a date alone as midnight UTC', () => {
    expect(parseDateTime('2026-03-01').toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
});
