import { EntityManager } from 'typeorm';
import { Principal } from '../auth/principal';
import { hasRank } from '../auth/roles';
import { AppError } from '../common/errors/app-error';
import { Unit } from './entities/unit.entity';

/** Company a caller is limited to: null (every company) for ADMIN and above. */
export function companyScope(principal: Principal): number | null {
  return hasRank(principal.role, 'ADMIN') ? null : (principal.companyId ?? -1);
}

/** The unit a unit resource (work order, failure) refers to, within the caller's scope; else 400. */
export async function unitReference(m: EntityManager, principal: Principal, unitId: number): Promise<Unit> {
  const scope = companyScope(principal);
  const qb = m.getRepository(Unit).createQueryBuilder('u').where('u.id = :unitId', { unitId });
  if (scope !== null) qb.andWhere('u.company_id = :scope', { scope });
  const unit = await qb.getOne();
  if (!unit)
    throw AppError.validation([{ field: 'unitId', message: `unitId ${unitId} does not name a unit` }]);
  return unit;
}

/** PUT updates the fields it is given; a required field may not be given as null. */
export function rejectNulls(dto: object, required: string[]) {
  const given = dto as Record<string, unknown>;
  const problems = required
    .filter((field) => given[field] === null)
    .map((field) => ({ field, message: `${field} must not be null` }));
  if (problems.length) throw AppError.validation(problems);
}
