import type { FieldError } from '../errors/app-error';

const NUL = '\u0000';
const MESSAGE = 'must not contain NUL characters or unpaired surrogates';

type WellFormedString = string & { isWellFormed(): boolean };

/** False for a string PostgreSQL cannot store: a NUL character or a lone UTF-16 surrogate. */
export function isStorableString(value: string): boolean {
  return !value.includes(NUL) && (value as WellFormedString).isWellFormed();
}

/**
 * Every string (and object key) of a request value that PostgreSQL cannot store, as field errors
 * named like the validation pipe names them (`items.0.name`). Bodies are bounded in size and depth
 * by the JSON parser, so the walk is short.
 */
export function unstorableStrings(value: unknown, field: string, found: FieldError[] = []): FieldError[] {
  if (typeof value === 'string') {
    if (!isStorableString(value)) found.push({ field, message: `${field} ${MESSAGE}` });
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      unstorableStrings(value[i], field ? `${field}.${i}` : String(i), found);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const name = field ? `${field}.${key}` : key;
      if (!isStorableString(key)) found.push({ field: field || 'body', message: `a field name ${MESSAGE}` });
      else unstorableStrings(item, name, found);
    }
  }
  return found;
}

/** Numbers of a validated query that are not safe integers or finite values (`page=1e21`). */
export function unsafeNumbers(dto: object): FieldError[] {
  return Object.entries(dto)
    .filter(
      ([, v]) => typeof v === 'number' && (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER),
    )
    .map(([field]) => ({ field, message: `${field} is out of range` }));
}
