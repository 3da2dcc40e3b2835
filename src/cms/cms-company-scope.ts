import { companyScope } from '../access/company-rule';
import type { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import type { CmsDdl } from './cms-ddl.repository';
import { CompiledType, ContentRecord } from './content-type.types';

/**
 * Company scope of custom tables (`options.companyScoped`). The records of a company-scoped type
 * carry `company_id` and are seen as other operational records are: ADMIN and above reach every
 * company's, everyone else their own company's (another company's record answers 404). A
 * client-scoped type's records belong to the client (every reader sees them all).
 */
export const isCompanyScoped = (type: CompiledType): boolean => type.companyScoped;

/**
 * The company of a new record: the caller's, whatever their role (as for every other record);
 * null for a client-scoped type. A caller without a company cannot create one (403).
 */
export function creationCompany(type: CompiledType, principal: Principal): number | null {
  if (!isCompanyScoped(type)) return null;
  if (principal.companyId === null) {
    throw AppError.forbidden(`Records of ${type.collectionName} belong to a company, and you have none`);
  }
  return principal.companyId;
}

/** The company a stored record belongs to (null for a client-scoped type). */
export function recordCompany(type: CompiledType, record: ContentRecord): number | null {
  return isCompanyScoped(type) ? Number(record.companyId) : null;
}

/**
 * The company a relation's target record must belong to: none when the target type is
 * client-scoped; the record's own company for a company-scoped record; else the caller's scope.
 */
export function relationCompany(
  target: CompiledType,
  ownCompany: number | null,
  principal: Principal,
): number | null {
  if (!isCompanyScoped(target)) return null;
  return ownCompany ?? companyScope(principal, 'records');
}

/**
 * Moves a type into or out of company scope when a PUT changes `options.companyScoped`. An empty
 * table just gains or loses its company column. A table with records is changed only by a caller
 * who crosses companies (403 otherwise): entering company scope needs `assign`, the company the
 * existing records go to (409 without it, 400 when it names no company); leaving it drops their
 * company, so every reader of the type sees them all. `assign` is refused (400) on any other PUT.
 */
export async function changeCompanyScope(
  cms: CmsDdl,
  from: CompiledType,
  to: CompiledType,
  principal: Principal,
  assign: number | undefined,
): Promise<void> {
  const [was, now] = [isCompanyScoped(from), isCompanyScoped(to)];
  if (assign !== undefined && (was || !now)) {
    throw AppError.validation([
      { field: 'companyId', message: 'companyId applies only when the type enters company scope' },
    ]);
  }
  if (was === now) return;
  const filled = await cms.hasRecords(from);
  if (filled && companyScope(principal, 'records') !== null) {
    throw AppError.forbidden('Only ADMIN and above change the company scope of a type that has records');
  }
  if (!now) return cms.dropCompanyColumn(from);
  if (filled && assign === undefined) {
    throw AppError.conflict(
      `${from.collectionName} has records: give ?companyId= to assign them to a company, or delete them first`,
    );
  }
  if (assign !== undefined) {
    if (!(await cms.companyExists(assign))) {
      throw AppError.validation([{ field: 'companyId', message: 'companyId does not name a company' }]);
    }
  }
  await cms.addCompanyColumn(to, filled ? assign : undefined);
}
