import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { companyWhere } from '../../access/company-rule';
import { SqlExample } from '../../database/sql-example';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { User } from './entities/user.entity';

/** The fields an administrator creates a user with. */
export type NewUser = Pick<
  User,
  | 'email'
  | 'username'
  | 'firstName'
  | 'lastName'
  | 'passwordHash'
  | 'roleId'
  | 'companyId'
  | 'confirmed'
  | 'blocked'
>;

/** The fields an administrator may change on a user. */
export type UserProfile = Pick<User, 'email' | 'username' | 'firstName' | 'lastName' | 'companyId'>;

export interface UserFilter {
  page: number;
  pageSize: number;
  blocked?: boolean;
  /** Matched anywhere in the e-mail, username, first or last name. */
  search?: string;
}

const EXAMPLE_USER: NewUser = {
  email: 'new.user@example.com',
  username: 'new.user@example.com',
  firstName: 'New',
  lastName: 'User',
  passwordHash: null,
  roleId: 1,
  companyId: null,
  confirmed: true,
  blocked: false,
};

/** Users (with their role) as logins and the user administration read and write them. */
@Injectable()
export class UsersRepository {
  constructor(private readonly db: TenantDatabase) {}

  /** A user not deleted whose e-mail or username is `identifier` (lower case), with the password hash. */
  @SqlExample(['admin@example.com'])
  findForLogin(identifier: string): Promise<User | null> {
    return this.db.production((m) =>
      m
        .getRepository(User)
        .createQueryBuilder('u')
        .addSelect('u.passwordHash')
        .innerJoinAndSelect('u.role', 'role')
        .where('(lower(u.email) = :id OR lower(u.username) = :id) AND u.deleted_at IS NULL', {
          id: identifier,
        })
        .getOne(),
    );
  }

  /** A user of any state, with role (refresh-token rotation checks the state itself). */
  @SqlExample((c) => [c.manager, 1])
  findWithRole(m: EntityManager, id: number): Promise<User | null> {
    return m.getRepository(User).findOne({ where: { id }, relations: { role: true } });
  }

  /** A user not deleted within a company scope (null: every company); `lock` locks the user row. */
  @SqlExample((c) => [c.manager, null, 1, false])
  @SqlExample((c) => [c.manager, 2, 1, true])
  findInScope(m: EntityManager, scope: number | null, id: number, lock = false): Promise<User | null> {
    const qb = m
      .getRepository(User)
      .createQueryBuilder('u')
      .innerJoinAndSelect('u.role', 'role')
      .where({ id, deletedAt: IsNull(), ...companyWhere(scope) });
    if (lock) qb.setLock('pessimistic_write', undefined, ['u']);
    return qb.getOne();
  }

  /** One page of the users not deleted within a company scope, by id, and the count of all matches. */
  @SqlExample([null, { page: 1, pageSize: 25 }])
  @SqlExample([2, { page: 2, pageSize: 10, blocked: false, search: 'smith' }])
  async page(scope: number | null, filter: UserFilter): Promise<[User[], number]> {
    const { page, pageSize } = filter;
    const qb = (await this.db.dataSource())
      .getRepository(User)
      .createQueryBuilder('u')
      .innerJoinAndSelect('u.role', 'role')
      .where({ deletedAt: IsNull(), ...companyWhere(scope) })
      .orderBy('u.id')
      .skip((page - 1) * pageSize)
      .take(pageSize);
    if (filter.blocked !== undefined) qb.andWhere('u.blocked = :blocked', { blocked: filter.blocked });
    if (filter.search) {
      const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(
        '(u.email ILIKE :like OR u.username ILIKE :like OR u.first_name ILIKE :like OR u.last_name ILIKE :like)',
        { like },
      );
    }
    return qb.getManyAndCount();
  }

  /** True when another user (not `exceptId`) has `email` or `username` as e-mail or username. */
  @SqlExample((c) => [c.manager, 'new@example.com', 'new', 0])
  async identifierTaken(tx: EntityManager, email: string, username: string | null, exceptId = 0) {
    const [taken] = await tx.query(
      `SELECT 1 FROM public.users
        WHERE id <> $3 AND (lower(email) IN ($1, $2) OR lower(username) IN ($1, $2))`,
      [email, username ?? email, exceptId],
    );
    return Boolean(taken);
  }

  @SqlExample((c) => [c.manager, EXAMPLE_USER])
  insert(tx: EntityManager, fields: NewUser): Promise<User> {
    const repo = tx.getRepository(User);
    return repo.save(repo.create(fields));
  }

  @SqlExample((c) => [c.manager, 1, { ...EXAMPLE_USER, companyId: 1 }])
  async updateProfile(tx: EntityManager, id: number, profile: UserProfile): Promise<void> {
    const { email, username, firstName, lastName, companyId } = profile;
    await tx.getRepository(User).update(id, { email, username, firstName, lastName, companyId });
  }

  /** Soft delete: the row stays, with its deletion time. */
  @SqlExample((c) => [c.manager, 1, new Date('2026-01-01T00:00:00Z')])
  async markDeleted(tx: EntityManager, id: number, deletedAt: Date): Promise<void> {
    await tx.query('UPDATE public.users SET deleted_at = $2, updated_at = now() WHERE id = $1', [
      id,
      deletedAt,
    ]);
  }

  @SqlExample((c) => [c.manager, 1, true])
  async setBlocked(tx: EntityManager, id: number, blocked: boolean): Promise<void> {
    await tx.query('UPDATE public.users SET blocked = $2, updated_at = now() WHERE id = $1', [id, blocked]);
  }

  @SqlExample((c) => [c.manager, 1, 2])
  async setRole(tx: EntityManager, id: number, roleId: number): Promise<void> {
    await tx.query('UPDATE public.users SET role_id = $2, updated_at = now() WHERE id = $1', [id, roleId]);
  }

  /** Every access token and two-factor challenge issued before carries the old version and stops. */
  @SqlExample((c) => [c.manager, 1])
  async bumpTokenVersion(tx: EntityManager, id: number): Promise<void> {
    await tx.query(
      'UPDATE public.users SET token_version = token_version + 1, updated_at = now() WHERE id = $1',
      [id],
    );
  }

  /** True while a user (deleted or not) belongs to the company. */
  @SqlExample((c) => [c.manager, 1])
  async anyInCompany(tx: EntityManager, companyId: number): Promise<boolean> {
    const [used] = await tx.query('SELECT 1 FROM public.users WHERE company_id = $1 LIMIT 1', [companyId]);
    return Boolean(used);
  }
}
