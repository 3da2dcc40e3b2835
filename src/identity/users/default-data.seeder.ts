import { EntityManager } from 'typeorm';
import { DEFAULT_PERMISSIONS } from '../../access/permissions';
import { ROLE_NAMES, ROLE_TYPES, RoleType } from '../../access/roles';

/** Seeds the five roles with their default permissions and a first company; safe to run again. */
export async function seedDefaultData(
  manager: EntityManager,
  companyName: string,
): Promise<{ companyId: number }> {
  for (const type of ROLE_TYPES) {
    await manager.query(
      `INSERT INTO public.roles (name, type, description, permissions) VALUES ($1, $2, $3, $4)
       ON CONFLICT (type) DO NOTHING`,
      [ROLE_NAMES[type], type, `${ROLE_NAMES[type]} (default)`, DEFAULT_PERMISSIONS[type]],
    );
  }
  const [existing] = await manager.query('SELECT id FROM public.companies ORDER BY id LIMIT 1');
  if (existing) return { companyId: existing.id };
  const [created] = await manager.query('INSERT INTO public.companies (name) VALUES ($1) RETURNING id', [
    companyName,
  ]);
  return { companyId: created.id };
}

export async function roleIdOf(manager: EntityManager, type: RoleType): Promise<number> {
  const [row] = await manager.query('SELECT id FROM public.roles WHERE type = $1', [type]);
  if (!row) throw new Error(`Role ${type} is missing; seed default data first`);
  return row.id;
}
