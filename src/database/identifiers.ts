/**
 * The one place that validates and quotes SQL identifiers. An identifier is lowercase
 * letters, digits and `_`, starting with a letter or `_`, at most 63 characters (PostgreSQL's limit):
 * anything else is refused before it reaches SQL, so quoting never has to escape.
 */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function isSafeIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** Double-quotes an identifier after checking it against the strict pattern above. */
export function quoteIdent(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Refusing unsafe SQL identifier: ${name}`);
  return `"${name}"`;
}

/** A string literal for statements that take no parameters (CREATE ROLE ... PASSWORD). */
export function quoteLiteral(value: string): string {
  if (value.includes('\0')) throw new Error('Refusing a literal with a NUL byte');
  return `'${value.replace(/'/g, "''")}'`;
}
