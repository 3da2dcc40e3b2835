import { Principal } from './principal';
import { hasRank } from './roles';

/** Company a caller is limited to: null (every company) for ADMIN and above, -1 (none) without a company. */
export function companyScope(principal: Principal): number | null {
  return hasRank(principal.role, 'ADMIN') ? null : (principal.companyId ?? -1);
}
