/** Values of the generated column `summary_kind` (see the AuditTrail migration). */
export const SUMMARY_KIND = { FAILED_LOGIN: 1, PASSWORD_CHANGE: 2, ROLE_CHANGE: 3 } as const;

/** `timestamp` within a report period ($1 inclusive start, $2 end). */
export const inPeriod = (endExclusive: boolean) =>
  `timestamp >= $1 AND timestamp ${endExclusive ? '<' : '<='} $2`;
