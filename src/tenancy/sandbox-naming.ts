/**
 * How sandbox schemas are named, written once: `sandbox_` followed by the sandbox's slug (lowercase
 * letters, digits and `_`). Every check, every name built and every catalogue query uses these.
 */
const PREFIX = 'sandbox_';
const SANDBOX_SCHEMA = /^sandbox_[a-z0-9_]{1,55}$/;

/** The LIKE pattern (a parameter value) that matches sandbox schema names in the catalogue. */
export const SANDBOX_SCHEMA_LIKE = 'sandbox\\_%';

export function isSandboxSchema(name: string): boolean {
  return SANDBOX_SCHEMA.test(name);
}

/** The schema of the sandbox with this slug; throws when the slug cannot make a valid name. */
export function sandboxSchemaName(slug: string): string {
  const name = `${PREFIX}${slug}`;
  if (!isSandboxSchema(name)) throw new Error(`Invalid sandbox slug: ${slug}`);
  return name;
}
