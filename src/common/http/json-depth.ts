const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of arrays and objects in raw JSON bytes, stopping as soon as it passes
 * `limit`. Brackets inside strings do not count. A quote or backslash byte never occurs inside a
 * multi-byte UTF-8 sequence, so a byte scan is exact. Malformed JSON is left to the parser.
 */
export function jsonDepthExceeds(raw: Buffer, limit: number): boolean {
  // Passing the limit takes at least limit + 1 opening brackets.
  if (raw.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

export const JSON_TOO_DEEP = 'entity.too.deep';

/** Thrown by the body parser's verify hook; the errors filter answers 400 VALIDATION_ERROR. */
export class JsonTooDeepError extends Error {
  readonly type = JSON_TOO_DEEP;
  readonly status = 400;

  constructor(readonly limit: number) {
    super(`JSON body nests deeper than ${limit} levels`);
  }
}
