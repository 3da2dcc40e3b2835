import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { RoleType } from '../../access/roles';
import { SqlExample } from '../../database/sql-example';

/** What every authenticated request needs to know of its user. */
export interface AuthState {
  userId: number;
  email: string;
  username: string | null;
  companyId: number | null;
  blocked: boolean;
  deleted: boolean;
  confirmed: boolean;
  tokenVersion: number;
  roleId: number;
  role: RoleType;
  permissions: ReadonlySet<string>;
}

interface AuthStateRow {
  id: number;
  email: string;
  username: string | null;
  company_id: number | null;
  blocked: boolean;
  deleted_at: Date | null;
  confirmed: boolean;
  token_version: number;
  role_id: number;
  type: RoleType;
  permissions: string[];
}

const toAuthState = (row: AuthStateRow): AuthState => ({
  userId: row.id,
  email: row.email,
  username: row.username,
  companyId: row.company_id,
  blocked: row.blocked,
  deleted: row.deleted_at !== null,
  confirmed: row.confirmed,
  tokenVersion: row.token_version,
  roleId: row.role_id,
  role: row.type,
  permissions: new Set<string>(row.permissions),
});

/** The authentication state of a user and its role, read on the manager of the client's database. */
@Injectable()
export class AuthStateRepository {
  @SqlExample((c) => [c.manager, 1])
  async load(m: EntityManager, userId: number): Promise<AuthState | null> {
    const rows = await m.query<AuthStateRow[]>(
      `SELECT u.id, u.email, u.username, u.company_id, u.blocked, u.deleted_at, u.confirmed, u.token_version,
              r.id AS role_id, r.type, r.permissions
         FROM public.users u JOIN public.roles r ON r.id = u.role_id
        WHERE u.id = $1`,
      [userId],
    );
    return rows[0] ? toAuthState(rows[0]) : null;
  }
}
