/**
 * A timestamptz column read as the same ISO 8601 text `Date.toJSON` gives (UTC, milliseconds, `Z`).
 * List endpoints select it this way: formatting in PostgreSQL is far cheaper than parsing every
 * value into a Date in Node and formatting it again for the JSON body.
 */
export const isoTimestamp = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
