import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
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

/** One record by id within the caller's company scope, optionally locked for update; else 404. */
export async function findScoped<E extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<E>,
  label: string,
  principal: Principal,
  id: number,
  lock = false,
): Promise<E> {
  const scope = companyScope(principal);
  const qb = m.getRepository(entity).createQueryBuilder('r').where('r.id = :id', { id });
  if (scope !== null) qb.andWhere('r.company_id = :scope', { scope });
  if (lock) qb.setLock('pessimistic_write');
  const record = await qb.getOne();
  if (!record) throw AppError.notFound(label);
  return record;
}

/** PUT updates the fields it is given; a required field may not be given as null. */
export function rejectNulls(dto: object, required: string[]) {
  const given = dto as Record<string, unknown>;
  const problems = required
    .filter((field) => given[field] === null)
    .map((field) => ({ field, message: `${field} must not be null` }));
  if (problems.length) throw AppError.validation(problems);
}

/** Query of a unit resource's list: filters, a whitelisted sort property and paging. */
export interface UnitRecordQuery {
  status?: string;
  unitId?: number;
  sort: string;
  order: 'ASC' | 'DESC';
  page: number;
  pageSize: number;
}

/** One page of a unit resource (work orders, failures) within the caller's company scope, and the total. */
export function listUnitRecords<E extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<E>,
  principal: Principal,
  q: UnitRecordQuery,
): Promise<[E[], number]> {
  const qb = m.getRepository(entity).createQueryBuilder('r');
  const scope = companyScope(principal);
  if (scope !== null) qb.andWhere('r.company_id = :scope', { scope });
  if (q.status) qb.andWhere('r.status = :status', { status: q.status });
  if (q.unitId) qb.andWhere('r.unit_id = :unitId', { unitId: q.unitId });
  return qb
    .orderBy(`r.${q.sort}`, q.order)
    .addOrderBy('r.id', q.order)
    .skip((q.page - 1) * q.pageSize)
    .take(q.pageSize)
    .getManyAndCount();
}
