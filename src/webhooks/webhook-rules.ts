import { FieldError } from '../common/errors/app-error';

export const MAX_WEBHOOKS_PER_COMPANY = 20;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const RESERVED =
  /^(host|content-length|content-type|transfer-encoding|connection|keep-alive|upgrade|te|trailer|x-svc-.*|webhook-.*)$/i;

/** Problems of a customHeaders object: names must be tokens and not ones the service sets itself. */
export function headerProblems(headers: Record<string, unknown> | undefined): FieldError[] {
  if (!headers) return [];
  const problems: FieldError[] = [];
  const entries = Object.entries(headers);
  if (entries.length > 20)
    problems.push({ field: 'customHeaders', message: 'customHeaders allows at most 20 headers' });
  for (const [name, value] of entries) {
    const field = `customHeaders.${name}`;
    if (!HEADER_NAME.test(name)) problems.push({ field, message: `"${name}" is not a valid header name` });
    else if (RESERVED.test(name))
      problems.push({ field, message: `${name} is set by the service and cannot be overridden` });
    if (typeof value !== 'string') problems.push({ field, message: `${field} must be a string` });
    else if (value.length > 2000 || /[\r\n\0]/.test(value)) {
      problems.push({ field, message: `${field} must be at most 2000 characters without line breaks` });
    }
  }
  return problems;
}
