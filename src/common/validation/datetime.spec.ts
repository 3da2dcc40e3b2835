import { AppError } from '../errors/app-error';
import { parseDateTime, readDateTime, withDates } from './datetime';

describe('dates and datetimes', () => {
  it('reads text without a zone as UTC', () => {
    expect(parseDateTime('2026-03-01T10:30:00').toISOString()).toBe('2026-03-01T10:30:00.000Z');
    expect(parseDateTime('2026-03-01T10:30').toISOString()).toBe('2026-03-01T10:30:00.000Z');
  });

  it('keeps a given zone and reads fractions', () => {
    expect(parseDateTime('2026-03-01T10:30:00+02:00').toISOString()).toBe('2026-03-01T08:30:00.000Z');
    expect(parseDateTime('2026-03-01T00:30:00-01:30').toISOString()).toBe('2026-03-01T02:00:00.000Z');
    expect(parseDateTime('2026-03-01T10:30:00.5Z').toISOString()).toBe('2026-03-01T10:30:00.500Z');
    expect(parseDateTime('2026-03-01T10:30:00.123456789Z').toISOString()).toBe('2026-03-01T10:30:00.123Z');
  });

  it('reads a date alone as midnight UTC, and says so', () => {
    expect(readDateTime('2026-03-01')).toEqual({
      date: new Date('2026-03-01T00:00:00.000Z'),
      dateOnly: true,
    });
    expect(readDateTime('2024-02-29')?.dateOnly).toBe(true);
    expect(readDateTime('0099-01-01')?.date.toISOString()).toBe('0099-01-01T00:00:00.000Z');
  });

  it('refuses other ISO 8601 forms and impossible dates and times', () => {
    const bad = [
      '2026-W01',
      '2026-W01-1',
      '20261125T101010Z',
      '2026-11-25T10:10:10,5Z',
      '2026-02-31',
      '2025-02-29',
      '2026-13-01',
      '2026-11-25T25:00Z',
      '2026-11-25T24:00',
      '2026-11-25T10:60',
      '2026-11-25T10:10:60Z',
      '2026-11-25T10:10+24:00',
      '2026-11-25T10:10+0200',
      '2026-11-25T10',
      '2026-11-25 10:10',
      '2026-330',
      '0000-01-01',
      '+002026-01-01',
      'yesterday',
      '',
    ];
    for (const text of bad) expect([text, readDateTime(text)]).toEqual([text, null]);
    expect(() => parseDateTime('2026-02-31')).toThrow(RangeError);
  });

  it('turns listed fields into Dates, and a bad one into a 400 naming it', () => {
    const out = withDates({ a: '2026-01-01', b: null, c: 'kept' }, ['a', 'b', 'x']);
    expect(out).toEqual({ a: new Date('2026-01-01T00:00:00Z'), b: null, c: 'kept' });
    expect(() => withDates({ a: '2026-02-31' }, ['a'])).toThrow(AppError);
  });
});
