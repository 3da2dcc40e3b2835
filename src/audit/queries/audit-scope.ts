import { Principal } from '../../access/principal';
import { hasRank } from '../../access/roles';

/**
 * Company whose entries a caller may read: null (every entry of the client) for ADMIN and above;
 * below, only entries of the caller's own company (-1, matching nothing, for a user without one).
 */
export function auditCompanyScope(principal: Principal): number | null {
  return hasRank(principal.role, 'ADMIN') ? null : (principal.companyId ?? -1);
}
