import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { Principal } from '../access/principal';
import { companyScope } from '../access/company-rule';
import { findReference } from './find-scoped';

/** A body field naming another record (`unitId` → a unit). */
export interface ReferenceField {
  entity: EntityTarget<ObjectLiteral>;
  field: string;
  names: string;
}

/**
 * Each id the body gives for one of `fields` must name a record of the record's company (the
 * caller's; for ADMIN and above, the record's own or, on creation, the caller's); else 400 naming
 * the field. Answers the referenced records by field.
 */
export async function checkReferences(
  m: EntityManager,
  principal: Principal,
  body: object,
  fields: readonly ReferenceField[],
  recordCompany?: number | null,
): Promise<Record<string, ObjectLiteral>> {
  const companyId =
    companyScope(principal) ?? (recordCompany === undefined ? principal.companyId : recordCompany);
  const found: Record<string, ObjectLiteral> = {};
  for (const ref of fields) {
    const id = (body as Record<string, unknown>)[ref.field];
    if (typeof id === 'number') found[ref.field] = await findReference(m, { ...ref, companyId }, id);
  }
  return found;
}
