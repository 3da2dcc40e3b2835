import { EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { companyScope } from '../access/company-rule';
import { findReference } from '../records/find-scoped';
import { Unit } from './entities/unit.entity';

/** The unit a unit record (work order, failure) refers to, within the caller's scope; else 400 naming `unitId`. */
export function unitReference(m: EntityManager, principal: Principal, unitId: number): Promise<Unit> {
  return findReference(
    m,
    { entity: Unit, field: 'unitId', names: 'a unit', companyId: companyScope(principal) },
    unitId,
  );
}
