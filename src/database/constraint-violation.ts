export interface ConstraintViolation {
  kind: 'unique' | 'foreignKey';
  /** The constraint or unique index PostgreSQL names, if any. */
  constraint?: string;
}

/**
 * The unique (SQLSTATE 23505) or foreign-key (23503) constraint a statement broke, read from the
 * PostgreSQL error (a TypeORM `QueryFailedError` carries the same fields); null for any other error.
 */
export function constraintViolation(err: unknown): ConstraintViolation | null {
  const { code, constraint } = (err ?? {}) as { code?: unknown; constraint?: string };
  if (code === '23505') return { kind: 'unique', constraint };
  if (code === '23503') return { kind: 'foreignKey', constraint };
  return null;
}
