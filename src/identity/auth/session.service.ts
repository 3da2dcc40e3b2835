import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { PRODUCTION_SCHEMA, tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { User } from '../users/entities/user.entity';
import { UsersRepository } from '../users/users.repository';
import { AuthSettings } from './auth.settings';
import { JwtService } from './jwt.service';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { SandboxAccess } from './sandbox-access.service';
import { SandboxGrantsRepository } from './sandbox-grants.repository';
import { randomToken, sha256 } from '../../common/crypto/token-hash';

export interface SandboxSummary {
  id: number;
  name: string;
  slug: string;
  schemaName: string;
  isMain: boolean;
}

export interface LoginResponse {
  jwt: string;
  refreshToken: string;
  user: {
    id: number;
    email: string;
    username: string | null;
    firstName: string | null;
    lastName: string | null;
    companyId: number | null;
    role: { id: number; name: string; type: string };
  };
  sandbox: SandboxSummary;
}

export const PRODUCTION_SANDBOX: SandboxSummary = Object.freeze({
  id: 0,
  name: 'Production',
  slug: 'main',
  schemaName: PRODUCTION_SCHEMA,
  isMain: true,
});

/** Issues the access token and a refresh token of a new family: the login response of /auth/local. */
@Injectable()
export class SessionService {
  constructor(
    private readonly jwt: JwtService,
    private readonly db: TenantDatabase,
    private readonly settings: AuthSettings,
    private readonly sandboxAccess: SandboxAccess,
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly users: UsersRepository,
    private readonly sandboxes: SandboxGrantsRepository,
  ) {}

  /** `user` must have its role loaded. */
  async issue(user: User, familyId: string = randomUUID()): Promise<LoginResponse> {
    const sandbox = await this.currentSandbox(user);
    const refreshToken = await this.db.production((m) => this.createRefreshToken(m, user.id, familyId));
    return {
      jwt: this.accessToken(user),
      refreshToken,
      user: {
        id: user.id,
        email: user.email,
        username: user.username,
        firstName: user.firstName,
        lastName: user.lastName,
        companyId: user.companyId,
        role: { id: user.role!.id, name: user.role!.name, type: user.role!.type },
      },
      sandbox,
    };
  }

  accessToken(user: User): string {
    return this.jwt.sign({
      sub: String(user.id),
      email: user.email,
      role: user.role!.type,
      companyId: user.companyId,
      cid: tenantContext.get().client.identifier,
      tv: user.tokenVersion,
    });
  }

  async createRefreshToken(manager: EntityManager, userId: number, familyId: string): Promise<string> {
    const value = randomToken(48);
    const ttlMs = this.settings.REFRESH_TOKEN_TTL_DAYS * 24 * 3600 * 1000;
    await this.refreshTokens.insert(manager, userId, sha256(value), familyId, new Date(Date.now() + ttlMs));
    return value;
  }

  /**
   * Ends every session issued so far (logout, block): revokes the refresh tokens and bumps the token
   * version, so every access token and pending two-factor challenge issued before stops at once.
   * The caller invalidates the AuthStateCache entry of the user once the transaction commits.
   */
  async endAll(manager: EntityManager, userId: number): Promise<void> {
    await this.revokeAll(manager, userId);
    await this.users.bumpTokenVersion(manager, userId);
  }

  /** Revokes every refresh token of a user (password change, reset, block, delete). */
  async revokeAll(manager: EntityManager, userId: number): Promise<void> {
    await this.refreshTokens.revokeAllOfUser(manager, userId);
  }

  /** The sandbox the login was made in (X-Tenant-ID); one the user was not granted answers 403. */
  private async currentSandbox(user: User): Promise<SandboxSummary> {
    const { schema } = tenantContext.get();
    if (schema === PRODUCTION_SCHEMA) return PRODUCTION_SANDBOX;
    const principal = { userId: user.id, role: user.role!.type };
    if (!(await this.sandboxAccess.allowed(principal, schema))) {
      throw AppError.forbidden('No access to this sandbox');
    }
    const sandbox = await this.db.production((m) => this.sandboxes.findBySchema(m, schema));
    if (!sandbox) return PRODUCTION_SANDBOX;
    return {
      id: sandbox.id,
      name: sandbox.name,
      slug: sandbox.slug,
      schemaName: sandbox.schemaName,
      isMain: false,
    };
  }
}
