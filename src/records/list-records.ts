import { EntityManager, EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Principal } from '../access/principal';
import { companyScope } from '../access/company-rule';
import { Paged } from '../common/pagination/pagination';
import { recordRows } from './records.repository';

/**
 * One page of a company-scoped resource whose conditions and order are the caller's own (ranges,
 * `NULLS LAST`): `shape` adds them to the query builder (alias `r`); ties are broken by id, newest first.
 * Plain lists (the query's sort, filters, cursors) are the record engine's (`RecordsService.listRecords`).
 */
export function listScopedBy<E extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<E>,
  principal: Principal,
  page: { page: number; pageSize: number },
  shape: (qb: SelectQueryBuilder<E>) => void,
): Promise<Paged<E>> {
  return recordRows.pageBy(m, entity, companyScope(principal), page, shape);
}
