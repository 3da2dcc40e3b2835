export const REDACTED = '[REDACTED]';

/** Field names whose value is a secret, however a log line spells them (`key: v`, `"key":"v"`, `key=v`). */
const SECRET_FIELD =
  /(["']?)\b(password\w*|passwordHash|\w*secret\w*|\w*token|authorization|cookie|api[_-]?key|databasePassword)\1(\s*[:=]\s*)("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|Bearer\s+\S+|[^\s,;&}\]]+)/gi;
/** Every value of a webhook's `customHeaders` (any header may carry a credential). */
const CUSTOM_HEADERS = /(["']?customHeaders["']?\s*[:=]\s*)\{[^}]*\}/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
const BCRYPT_HASH = /\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}/g;
const API_TOKEN = /\bsvc_[A-Za-z0-9_-]{20,}/g;
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

/** Masks every known kind of secret in a log line; cheap when there is none to mask. */
export function redactText(text: string): string {
  return text
    .replace(CUSTOM_HEADERS, `$1${REDACTED}`)
    .replace(SECRET_FIELD, `$1$2$1$3${REDACTED}`)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(BCRYPT_HASH, REDACTED)
    .replace(API_TOKEN, REDACTED)
    .replace(JWT, REDACTED);
}
