import { EntityManager, EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Principal } from '../access/principal';
import { paged, Paged } from '../common/pagination/pagination';
import { companyScope } from '../access/company-rule';
import { SortedPage } from './sorted-page-query';

/** Equality filters by property name; an undefined (or null) value filters nothing. */
export type RecordFilters = Record<string, unknown>;

/**
 * One page of a company-scoped resource in the query's order (ties broken by id), with the list
 * envelope. Soft-deleted records (`@DeleteDateColumn`) are left out.
 */
export async function listScoped<E extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<E>,
  principal: Principal,
  q: SortedPage,
  filters: RecordFilters = {},
): Promise<Paged<E>> {
  const [rows, total] = await scopedQuery(m, entity, principal, filters)
    .orderBy(`r.${q.sort}`, q.order)
    .addOrderBy('r.id', q.order)
    .skip((q.page - 1) * q.pageSize)
    .take(q.pageSize)
    .getManyAndCount();
  return paged(rows, total, q.page, q.pageSize);
}

/**
 * One page of a company-scoped resource whose conditions and order are the caller's own (ranges,
 * `NULLS LAST`): `shape` adds them to the query builder (alias `r`); ties are broken by id, newest first.
 */
export async function listScopedBy<E extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<E>,
  principal: Principal,
  page: { page: number; pageSize: number },
  shape: (qb: SelectQueryBuilder<E>) => void,
): Promise<Paged<E>> {
  const qb = scopedQuery(m, entity, principal, {});
  shape(qb);
  const [rows, total] = await qb
    .addOrderBy('r.id', 'DESC')
    .skip((page.page - 1) * page.pageSize)
    .take(page.pageSize)
    .getManyAndCount();
  return paged(rows, total, page.page, page.pageSize);
}

/** `{ data: { count } }` of a company-scoped resource. */
export async function countScoped<E extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<E>,
  principal: Principal,
  filters: RecordFilters = {},
): Promise<{ data: { count: number } }> {
  return { data: { count: await scopedQuery(m, entity, principal, filters).getCount() } };
}

function scopedQuery<E extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<E>,
  principal: Principal,
  filters: RecordFilters,
): SelectQueryBuilder<E> {
  const repo = m.getRepository(entity);
  const qb = repo.createQueryBuilder('r');
  const scope = companyScope(principal);
  if (scope !== null) qb.andWhere('r.company_id = :scope', { scope });
  for (const [property, value] of Object.entries(filters)) {
    if (value === undefined || value === null) continue;
    const column = repo.metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${repo.metadata.name} has no column ${property}`);
    qb.andWhere(`r.${column.databaseName} = :f_${property}`, { [`f_${property}`]: value });
  }
  return qb;
}
