import { AppError } from '../common/errors/app-error';
import type { Principal } from './principal';
import { hasRank, RoleType } from './roles';

/**
 * Who sees across companies, by what is being reached:
 * - `records`: operational records (units, work orders, outages, users, AI statistics): ADMIN and above;
 * - `files`: a company's files, documents and OCR settings: SUPER_ADMIN alone.
 * Everyone else sees their own company only, and a caller without a company sees none.
 */
export type CompanyAudience = 'records' | 'files';

const CROSSES_COMPANIES: Record<CompanyAudience, RoleType> = { records: 'ADMIN', files: 'SUPER_ADMIN' };

/** The company a caller is limited to: null (every company) when the caller crosses companies, -1 (none) without one. */
export function companyScope(principal: Principal, audience: CompanyAudience = 'records'): number | null {
  return hasRank(principal.role, CROSSES_COMPANIES[audience]) ? null : (principal.companyId ?? -1);
}

/** A company named in a path is reached by its members and by those who cross companies (403 otherwise). */
export function assertCompanyAccess(
  principal: Principal,
  companyId: number,
  audience: CompanyAudience = 'files',
): void {
  const scope = companyScope(principal, audience);
  if (scope === null || scope === companyId) return;
  throw AppError.forbidden('No access to this company');
}

/**
 * The SQL condition that limits `column` to a company scope bound at `$<index>` (a scope from
 * `companyScope`: null reaches every company). Repositories write every company condition with it.
 */
export function companyCondition(column: string, index: number): string {
  return `($${index}::int IS NULL OR ${column} = $${index}::int)`;
}

/** The same rule as TypeORM find options: `{}` for every company, `{ companyId }` otherwise. */
export function companyWhere(scope: number | null): { companyId?: number } {
  return scope === null ? {} : { companyId: scope };
}
