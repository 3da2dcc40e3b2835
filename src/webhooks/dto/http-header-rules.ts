import { ValidateBy, ValidationOptions } from 'class-validator';

/** A field name as HTTP defines it (RFC 9110 `token`). */
export const HEADER_NAME_TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** A field value we send: visible ASCII, space and horizontal tab only (no CR, LF, NUL, no non-ASCII). */
export const HEADER_VALUE = /^[\t\x20-\x7E]*$/;

/** The first reason `headers` cannot go out as HTTP header fields, or null when every one can. */
export function invalidHeader(headers: unknown): string | null {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return null;
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (!HEADER_NAME_TOKEN.test(name)) return `"${name}" is not a valid HTTP header name`;
    if (typeof value !== 'string') return `customHeaders.${name} must be a string`;
    if (!HEADER_VALUE.test(value))
      return `customHeaders.${name} may hold only visible ASCII characters, spaces and tabs`;
  }
  return null;
}

/** customHeaders: every name an HTTP token, every value visible ASCII plus space and tab. */
export const IsHttpHeaders = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isHttpHeaders',
      validator: {
        validate: (value: unknown) => invalidHeader(value) === null,
        defaultMessage: (args) => invalidHeader(args?.value) ?? 'customHeaders must be valid HTTP headers',
      },
    },
    options,
  );
