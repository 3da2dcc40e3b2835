import { registerDecorator, ValidationArguments } from 'class-validator';
import { AppError } from '../errors/app-error';

/**
 * The one grammar of dates and datetimes in the API: an RFC 3339 / ISO 8601 calendar date, alone or
 * with a time of hours and minutes, optional seconds and fraction, and a zone (`Z`, `±hh:mm`) or none.
 * Week dates, ordinal dates, the basic format and a comma before the fraction are not accepted.
 */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|([+-])(\d{2}):(\d{2}))?)?$/;

export const DATE_TIME_RULE =
  'YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss[.fraction]] with Z, ±hh:mm or no zone (UTC)';

export interface ReadDateTime {
  date: Date;
  /** Only a calendar date was given (midnight UTC of that day). */
  dateOnly: boolean;
}

const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, month: number) =>
  [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];

/**
 * The instant `text` names, or null when it is not of the grammar above or names no real time
 * (February 31, hour 25, offset +24:00). No zone means UTC, whatever the server's time zone.
 */
export function readDateTime(text: string): ReadDateTime | null {
  const m = typeof text === 'string' ? DATE_TIME.exec(text) : null;
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  const [sign, offsetHours, offsetMinutes] = [m[9] === '-' ? -1 : 1, Number(m[10] ?? 0), Number(m[11] ?? 0)];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  date.setUTCFullYear(year); // Date.UTC reads years 0-99 as 1900-1999
  date.setTime(date.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000);
  return { date, dateOnly: m[4] === undefined };
}

/** A date or datetime the validation pipe has accepted, as a Date; a bad one throws. */
export function parseDateTime(text: string): Date {
  const read = readDateTime(text);
  if (!read) throw new RangeError(`not a date or datetime: ${text}`);
  return read.date;
}

/**
 * The body with each listed datetime field read as a Date; an absent field stays absent and null
 * stays null, so a partial `PUT` leaves the others alone. A bad one is 400 naming the field.
 */
export function withDates<T extends object>(body: T, fields: readonly string[]): T {
  const out = { ...body } as Record<string, unknown>;
  for (const field of fields) {
    const value = out[field];
    if (typeof value !== 'string') continue;
    const read = readDateTime(value);
    if (!read) throw AppError.validation([{ field, message: `${field} must be ${DATE_TIME_RULE}` }]);
    out[field] = read.date;
  }
  return out as T;
}

/** class-validator rule: a string of the grammar above naming a real date and time. */
export function IsDateTimeText(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDateTimeText',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => typeof value === 'string' && readDateTime(value) !== null,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be ${DATE_TIME_RULE}`,
      },
    });
}
