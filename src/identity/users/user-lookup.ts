import { EntityManager } from 'typeorm';
import { Principal } from '../../access/principal';
import { hasRank } from '../../access/roles';
import { AppError } from '../../common/errors/app-error';
import { User } from './entities/user.entity';
import { Role } from './entities/role.entity';

import { companyScope } from '../../access/company-rule';

/** ADMIN and above see every user of the client; others only their own company's. */
export { companyScope };

export async function findUser(
  m: EntityManager,
  principal: Principal,
  id: number,
  lock = false,
): Promise<User> {
  const qb = m
    .getRepository(User)
    .createQueryBuilder('u')
    .innerJoinAndSelect('u.role', 'role')
    .where('u.id = :id AND u.deleted_at IS NULL', { id });
  const scope = companyScope(principal);
  if (scope !== null) qb.andWhere('u.company_id = :scope', { scope });
  if (lock) qb.setLock('pessimistic_write', undefined, ['u']);
  const user = await qb.getOne();
  if (!user) throw AppError.notFound('User');
  return user;
}

/** Only a SUPER_ADMIN may change a SUPER_ADMIN; nobody blocks or deletes themselves. */
export function ensureMayChange(principal: Principal, target: User, selfAllowed = true) {
  if (target.role?.type === 'SUPER_ADMIN' && principal.role !== 'SUPER_ADMIN') {
    throw AppError.forbidden('Only a super administrator may change a super administrator');
  }
  if (!selfAllowed && target.id === principal.userId) {
    throw AppError.badRequest('You cannot do this to your own account');
  }
}

/** A role the caller may hand out: one that exists and is not above the caller's own. */
export async function assignableRole(m: EntityManager, principal: Principal, roleId: number): Promise<Role> {
  const role = await m.getRepository(Role).findOneBy({ id: roleId });
  if (!role) throw AppError.validation([{ field: 'roleId', message: 'roleId names no role' }]);
  if (!hasRank(principal.role, role.type)) {
    throw AppError.forbidden(`You cannot assign the role ${role.type}`);
  }
  return role;
}

export async function ensureCompany(m: EntityManager, companyId: number): Promise<void> {
  const [row] = await m.query('SELECT 1 FROM public.companies WHERE id = $1', [companyId]);
  if (!row) throw AppError.validation([{ field: 'companyId', message: 'companyId names no company' }]);
}
