import { EntityManager } from 'typeorm';
import { RoleType } from '../../access/roles';
import { CompaniesRepository } from './companies.repository';
import { RolesRepository } from './roles.repository';

// Called with a manager by provisioning and the first start, outside any request: the repositories
// hold no state, so plain instances serve.
const roles = new RolesRepository();
const companies = new CompaniesRepository();

/** Seeds the five roles with their default permissions and a first company; safe to run again. */
export async function seedDefaultData(
  manager: EntityManager,
  companyName: string,
): Promise<{ companyId: number }> {
  await roles.insertDefaults(manager);
  const existing = await companies.firstId(manager);
  if (existing !== null) return { companyId: existing };
  return { companyId: await companies.insertNamed(manager, companyName) };
}

export async function roleIdOf(manager: EntityManager, type: RoleType): Promise<number> {
  const id = await roles.idOfType(manager, type);
  if (id === null) throw new Error(`Role ${type} is missing; seed default data first`);
  return id;
}
