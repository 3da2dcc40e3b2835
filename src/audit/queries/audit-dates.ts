import { AppError } from '../../common/errors/app-error';
import { DATE_TIME_RULE, readDateTime } from '../../common/validation/datetime';

export interface AuditDate {
  date: Date;
  dateOnly: boolean;
  /** The value as given, echoed in report periods. */
  text: string;
}

/** Inclusive start and end of a query; a date-only end includes that whole day (UTC). */
export interface DateRange {
  from?: Date;
  /** Exclusive upper bound when `endExclusive`, inclusive otherwise. */
  to?: Date;
  endExclusive: boolean;
  startText?: string;
  endText?: string;
}

/** An ISO date (`2026-01-31`, a UTC day) or date-time (no offset means UTC); null when not one. */
export function parseAuditDate(text: string): AuditDate | null {
  const read = readDateTime(text);
  return read && { ...read, text };
}

/** Parses the startDate/endDate pair; startDate after endDate is a 400 VALIDATION_ERROR. */
export function parseRange(startDate?: string, endDate?: string): DateRange {
  const start = startDate === undefined ? null : parseAuditDate(startDate);
  const end = endDate === undefined ? null : parseAuditDate(endDate);
  const problems = [
    ...(startDate !== undefined && !start
      ? [{ field: 'startDate', message: `startDate must be ${DATE_TIME_RULE}` }]
      : []),
    ...(endDate !== undefined && !end
      ? [{ field: 'endDate', message: `endDate must be ${DATE_TIME_RULE}` }]
      : []),
  ];
  if (problems.length) throw AppError.validation(problems);
  const range: DateRange = { endExclusive: false, startText: start?.text, endText: end?.text };
  if (start) range.from = start.date;
  if (end) {
    range.to = end.dateOnly ? new Date(end.date.getTime() + 86_400_000) : end.date;
    range.endExclusive = end.dateOnly;
  }
  if (range.from && range.to && (range.endExclusive ? range.from >= range.to : range.from > range.to)) {
    throw AppError.validation([{ field: 'startDate', message: 'startDate must not be after endDate' }]);
  }
  return range;
}

/** A report period: the given dates, or the last `days` days up to now. */
export function reportPeriod(startDate?: string, endDate?: string, days = 30): Required<DateRange> {
  const range = parseRange(startDate, endDate);
  const to = range.to ?? new Date();
  const from = range.from ?? new Date(to.getTime() - days * 86_400_000);
  if (from > to) {
    throw AppError.validation([{ field: 'startDate', message: 'startDate must not be after endDate' }]);
  }
  return {
    from,
    to,
    endExclusive: range.to ? range.endExclusive : false,
    startText: range.startText ?? from.toISOString(),
    endText: range.endText ?? to.toISOString(),
  };
}
