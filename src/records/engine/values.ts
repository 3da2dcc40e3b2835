import { DATE_TIME_RULE, readDateTime } from '../../common/validation/datetime';
import { FieldPattern } from './patterns';
import { AttributeDefinition } from './record-type';

/** A value ready to travel as a SQL parameter, or why it cannot. */
export type Checked = { ok: true; value: unknown } | { ok: false; message: string };

const ok = (value: unknown): Checked => ({ ok: true, value });
const bad = (message: string): Checked => ({ ok: false, message });

const INT32 = 2 ** 31;
const INT64_MAX = 9223372036854775807n;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UID = /^[A-Za-z0-9_.~-]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?$/;
const HAS_TIME = /^\d{4}-\d{2}-\d{2}T/i;
const DECIMAL = /^-?\d{1,8}(\.\d{1,2})?$/;
const MAX_IDS = 1000;

/** Longest string a field takes: its maxLength, or the width of its column. */
export function stringWidth(def: AttributeDefinition): number | null {
  if (def.type === 'string') return def.maxLength ?? 255;
  if (def.type === 'enumeration') return 100;
  if (def.type === 'email' || def.type === 'uid') return 255;
  return def.maxLength ?? null;
}

export const isStringType = (type: string) =>
  ['string', 'text', 'richtext', 'email', 'uid', 'enumeration'].includes(type);
export const isNumberType = (type: string) => ['integer', 'biginteger', 'float', 'decimal'].includes(type);
export const isManyRelation = (def: AttributeDefinition) =>
  def.type === 'relation' && (def.relation === 'oneToMany' || def.relation === 'manyToMany');

const positiveId = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/**
 * Checks a value against its field's type and options and turns it into a SQL parameter. `null`
 * passes here; `required` is checked by the caller, which knows whether the field was sent.
 */
export function checkValue(def: AttributeDefinition, value: unknown, regex: FieldPattern | null): Checked {
  if (value === null) return ok(null);
  if (isStringType(def.type)) return checkString(def, value, regex);
  if (isNumberType(def.type)) return checkNumber(def, value);
  const type = def.type;
  if (type === 'boolean') return typeof value === 'boolean' ? ok(value) : bad('must be a boolean');
  if (type === 'date') return checkDate(value);
  if (type === 'time') {
    return typeof value === 'string' && TIME.test(value) ? ok(value) : bad('must be a time HH:MM[:SS]');
  }
  if (type === 'datetime') return checkDateTime(value);
  if (type === 'json') return ok(JSON.stringify(value));
  if (type === 'media') {
    if (def.multiple) return checkIds(value, 'media ids');
    return positiveId(value) ? ok(value) : bad('must be a file id');
  }
  if (type === 'relation') {
    if (isManyRelation(def)) return checkIds(value, 'ids of the target');
    return positiveId(value) ? ok(value) : bad('must be the id of a target record');
  }
  return bad('has an unknown type');
}

function checkString(def: AttributeDefinition, value: unknown, regex: FieldPattern | null): Checked {
  if (typeof value !== 'string') return bad('must be a string');
  const width = stringWidth(def);
  if (width !== null && value.length > width) return bad(`must be at most ${width} characters`);
  if (def.minLength !== undefined && value.length < def.minLength) {
    return bad(`must be at least ${def.minLength} characters`);
  }
  if (def.type === 'email' && !EMAIL.test(value)) return bad('must be an e-mail address');
  if (def.type === 'uid' && !UID.test(value)) return bad('must be letters, digits, -, _, . or ~');
  if (def.type === 'enumeration' && !(def.enum ?? []).includes(value)) {
    return bad(`must be one of ${(def.enum ?? []).join(', ')}`);
  }
  if (regex?.unsupported) {
    return bad('has a pattern that cannot be evaluated safely; change the content type to check this field');
  }
  if (regex && !regex.test(value)) return bad('does not match the pattern');
  return ok(value);
}

function checkNumber(def: AttributeDefinition, value: unknown): Checked {
  let n: number;
  let param: unknown = value;
  if (def.type === 'biginteger') {
    const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
    if (typeof text !== 'string' || !/^-?\d{1,19}$/.test(text)) return bad('must be an integer');
    const big = BigInt(text);
    if (big > INT64_MAX || big < -INT64_MAX - 1n) return bad('is out of range for a big integer');
    n = Number(big);
    param = text;
  } else if (def.type === 'decimal') {
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
    if (typeof text !== 'string' || !DECIMAL.test(text)) {
      return bad('must be a decimal number with at most 8 integer digits and 2 decimals');
    }
    n = Number(text);
    param = text;
  } else {
    if (typeof value !== 'number' || !Number.isFinite(value)) return bad('must be a number');
    n = value;
    if (def.type === 'integer' && (!Number.isInteger(n) || n < -INT32 || n >= INT32)) {
      return bad('must be an integer between -2147483648 and 2147483647');
    }
    if (def.type === 'float' && Math.abs(n) > 3.4e38) return bad('is out of range for a float');
  }
  if (def.min !== undefined && n < def.min) return bad(`must be at least ${def.min}`);
  if (def.max !== undefined && n > def.max) return bad(`must be at most ${def.max}`);
  return ok(param);
}

function checkDate(value: unknown): Checked {
  if (typeof value !== 'string' || !DATE.test(value)) return bad('must be a date YYYY-MM-DD');
  return readDateTime(value) ? ok(value) : bad('is not a real date');
}

function checkDateTime(value: unknown): Checked {
  if (typeof value !== 'string' || !HAS_TIME.test(value)) return bad('must be an ISO 8601 date-time');
  const read = readDateTime(value);
  return read ? ok(read.date.toISOString()) : bad(`is not a real date-time (${DATE_TIME_RULE})`);
}

function checkIds(value: unknown, what: string): Checked {
  if (!Array.isArray(value) || !value.every(positiveId)) return bad(`must be an array of ${what}`);
  if (value.length > MAX_IDS) return bad(`must hold at most ${MAX_IDS} ids`);
  return ok([...new Set(value as number[])]);
}
