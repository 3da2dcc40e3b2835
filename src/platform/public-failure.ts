/** PostgreSQL's names of the SQLSTATE classes a provisioning or migration meets; others point to the log. */
const SQLSTATE_CLASSES: Record<string, string> = {
  '08': 'connection exception',
  '23': 'integrity constraint violation',
  '28': 'invalid authorization',
  '3D': 'invalid catalog name',
  '40': 'transaction rollback',
  '42': 'syntax error or access rule violation',
  '53': 'insufficient resources',
  '55': 'object not in prerequisite state',
  '57': 'operator intervention',
};

/**
 * A failure as the API may show it (a client's `lastError`, a migrate-all result). Driver messages
 * name the host, port, database and role, which the API never shows; they stay in the server log.
 */
export function publicFailure(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
    return `Database error ${code}: ${SQLSTATE_CLASSES[code.slice(0, 2)] ?? 'see the server log'}`;
  }
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return `Database server unreachable (${code})`;
  return 'Failed; see the server log';
}
