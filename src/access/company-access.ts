import type { Principal } from './principal';
import { AppError } from '../common/errors/app-error';

/** A company named in a path is reached by its members and by SUPER_ADMIN only (403 otherwise). */
export function assertCompanyAccess(principal: Principal, companyId: number): void {
  if (principal.role === 'SUPER_ADMIN' || principal.companyId === companyId) return;
  throw AppError.forbidden('No access to this company');
}

/** The company filter of a caller on records without a path company: null (all) for SUPER_ADMIN. */
export function ownCompany(principal: Principal): number | null {
  return principal.role === 'SUPER_ADMIN' ? null : (principal.companyId ?? -1);
}
