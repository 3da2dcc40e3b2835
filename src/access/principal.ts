import type { RoleType } from './roles';

/** Who is calling: a user through a JWT, or an API token acting for its creator. */
export interface Principal {
  userId: number;
  email: string;
  username: string | null;
  roleId: number;
  role: RoleType;
  companyId: number | null;
  permissions: ReadonlySet<string>;
  via: 'jwt' | 'api_token';
  apiTokenId?: number;
  /** An API token that is not full-access: only its listed permissions apply, never its creator's role. */
  restricted?: boolean;
}
