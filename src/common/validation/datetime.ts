const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;
const HAS_TIME = /T\d/;

/**
 * A datetime sent as ISO 8601 text. Text without a zone means UTC, whatever the server's time zone
 * (`new Date('2026-01-01T10:00')` alone would read it in local time).
 */
export function parseDateTime(text: string): Date {
  return new Date(HAS_TIME.test(text) && !HAS_ZONE.test(text) ? `${text}Z` : text);
}

/**
 * The body with each listed datetime field read as a Date (`parseDateTime`); an absent field stays
 * absent and null stays null, so a partial `PUT` leaves the others alone.
 */
export function withDates<T extends object>(body: T, fields: readonly string[]): T {
  const out = { ...body } as Record<string, unknown>;
  for (const field of fields) {
    const value = out[field];
    if (typeof value === 'string') out[field] = parseDateTime(value);
  }
  return out as T;
}
