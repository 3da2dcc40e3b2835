import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { companyScope } from '../../access/company-rule';
import { Principal } from '../../access/principal';
import { hasRank } from '../../access/roles';
import { AppError } from '../../common/errors/app-error';
import { CompaniesRepository } from './companies.repository';
import { Role } from './entities/role.entity';
import { User } from './entities/user.entity';
import { RolesRepository } from './roles.repository';
import { UsersRepository } from './users.repository';

/** Only a SUPER_ADMIN may change a SUPER_ADMIN; nobody blocks or deletes themselves. */
export function ensureMayChange(principal: Principal, target: User, selfAllowed = true) {
  if (target.role?.type === 'SUPER_ADMIN' && principal.role !== 'SUPER_ADMIN') {
    throw AppError.forbidden('Only a super administrator may change a super administrator');
  }
  if (!selfAllowed && target.id === principal.userId) {
    throw AppError.badRequest('You cannot do this to your own account');
  }
}

/** The rules of the user administration for finding a user, a role to hand out and a company. */
@Injectable()
export class UserLookup {
  constructor(
    private readonly users: UsersRepository,
    private readonly roles: RolesRepository,
    private readonly companies: CompaniesRepository,
  ) {}

  /** A user the caller sees (ADMIN and above: every company's; others their own company's), or 404. */
  async findUser(m: EntityManager, principal: Principal, id: number, lock = false): Promise<User> {
    const user = await this.users.findInScope(m, companyScope(principal), id, lock);
    if (!user) throw AppError.notFound('User');
    return user;
  }

  /** A role the caller may hand out: one that exists and is not above the caller's own. */
  async assignableRole(m: EntityManager, principal: Principal, roleId: number): Promise<Role> {
    const role = await this.roles.findById(m, roleId);
    if (!role) throw AppError.validation([{ field: 'roleId', message: 'roleId names no role' }]);
    if (!hasRank(principal.role, role.type)) {
      throw AppError.forbidden(`You cannot assign the role ${role.type}`);
    }
    return role;
  }

  async ensureCompany(m: EntityManager, companyId: number): Promise<void> {
    if (!(await this.companies.exists(m, companyId))) {
      throw AppError.validation([{ field: 'companyId', message: 'companyId names no company' }]);
    }
  }
}
