import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import { companyScope } from '../access/company-rule';
import { recordRows } from './records.repository';

/**
 * One record by id within the caller's company scope, optionally locked for update; else 404.
 * A soft-deleted record (an entity with a `@DeleteDateColumn`) is not found.
 */
export async function findScoped<E extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<E>,
  label: string,
  principal: Principal,
  id: number,
  lock = false,
): Promise<E> {
  const record = await recordRows.byId(m, entity, id, companyScope(principal), lock);
  if (!record) throw AppError.notFound(label);
  return record;
}

/** What a referenced id in a request body must name, and in which company (null: any). */
export interface Reference<E extends ObjectLiteral> {
  entity: EntityTarget<E>;
  /** The body field, named by the 400 (`unitId`). */
  field: string;
  /** What the id should name, in words (`a unit`). */
  names: string;
  companyId: number | null;
}

/** The record a body field refers to, within the given company; else 400 VALIDATION_ERROR naming the field. */
export async function findReference<E extends ObjectLiteral>(
  m: EntityManager,
  ref: Reference<E>,
  id: number,
): Promise<E> {
  const record = await recordRows.byId(m, ref.entity, id, ref.companyId, false);
  if (!record)
    throw AppError.validation([
      { field: ref.field, message: `${ref.field} ${id} does not name ${ref.names}` },
    ]);
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
