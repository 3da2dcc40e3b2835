import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlExample } from '../../database/sql-example';
import { Role, User } from '../../identity';

/** What a sign-in reads of a user and its role. */
interface UserRow {
  id: number;
  email: string;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  company_id: number | null;
  blocked: boolean;
  confirmed: boolean;
  two_factor_enabled: boolean;
  token_version: number;
  role_id: number;
  role_name: string;
  role_type: Role['type'];
}

/** A user an SSO flow signs in, links or provisions. */
export interface SsoUser {
  user: User;
  confirmed: boolean;
}

/** A user created by just-in-time provisioning (confirmed, without password). */
export interface ProvisionedUser {
  email: string;
  firstName: string | null;
  lastName: string | null;
  phoneNumber: string | null;
  profileId: number | null;
  roleId: number;
  companyId: number | null;
}

const USER_SELECT = `SELECT u.id, u.email, u.username, u.first_name, u.last_name, u.company_id, u.blocked,
       u.confirmed, u.two_factor_enabled, u.token_version, r.id AS role_id, r.name AS role_name, r.type AS role_type
  FROM public.users u JOIN public.roles r ON r.id = u.role_id`;

function toUser(row: UserRow): User {
  const role = Object.assign(new Role(), { id: row.role_id, name: row.role_name, type: row.role_type });
  return Object.assign(new User(), {
    id: row.id,
    email: row.email,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    companyId: row.company_id,
    blocked: row.blocked,
    twoFactorEnabled: row.two_factor_enabled,
    tokenVersion: row.token_version,
    roleId: row.role_id,
    role,
  });
}

const toSsoUser = (row: UserRow): SsoUser => ({ user: toUser(row), confirmed: row.confirmed });

const EXAMPLE_USER: ProvisionedUser = {
  email: 'jane.doe@example.com',
  firstName: 'Jane',
  lastName: 'Doe',
  phoneNumber: null,
  profileId: null,
  roleId: 5,
  companyId: 1,
};

/** The users SSO signs in, links and provisions, with their role. */
@Injectable()
export class SsoUsersRepository {
  /** The user linked to an identity (deleted ones too: `deleted` tells). */
  @SqlExample((c) => [c.manager, 1, 'idp-subject-0001'])
  async findLinked(
    m: EntityManager,
    providerId: number,
    subject: string,
  ): Promise<(SsoUser & { deleted: boolean }) | null> {
    const [linked] = await m.query(
      `${USER_SELECT.replace('SELECT', 'SELECT u.deleted_at,')} JOIN sso_identities i ON i.user_id = u.id
        WHERE i.provider_id = $1 AND i.subject = $2`,
      [providerId, subject],
    );
    return linked ? { ...toSsoUser(linked), deleted: Boolean(linked.deleted_at) } : null;
  }

  /** A user not deleted whose e-mail is `email` (lower case). */
  @SqlExample((c) => [c.manager, 'jane.doe@example.com'])
  async findByEmail(m: EntityManager, email: string): Promise<SsoUser | null> {
    const [row] = await m.query(`${USER_SELECT} WHERE lower(u.email) = $1 AND u.deleted_at IS NULL`, [email]);
    return row ? toSsoUser(row) : null;
  }

  /** A user not deleted. */
  @SqlExample((c) => [c.manager, 1])
  async findActive(m: EntityManager, id: number): Promise<SsoUser | null> {
    const [row] = await m.query(`${USER_SELECT} WHERE u.id = $1 AND u.deleted_at IS NULL`, [id]);
    return row ? toSsoUser(row) : null;
  }

  /** Creates the user and answers it with its role. */
  @SqlExample((c) => [c.manager, EXAMPLE_USER])
  async insert(tx: EntityManager, u: ProvisionedUser): Promise<User> {
    const [created] = await tx.query(
      `INSERT INTO public.users (email, first_name, last_name, phone_number, profile_id, role_id, company_id, confirmed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, true) RETURNING id`,
      [u.email, u.firstName, u.lastName, u.phoneNumber, u.profileId, u.roleId, u.companyId],
    );
    const [row] = await tx.query(`${USER_SELECT} WHERE u.id = $1`, [created.id]);
    return toUser(row);
  }
}
