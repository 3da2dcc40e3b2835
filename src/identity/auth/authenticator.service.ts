import { Inject, Injectable, Optional } from '@nestjs/common';
import { BearerAuthenticator } from '../../access/bearer-authenticator';
import { AppError } from '../../common/errors/app-error';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { API_TOKEN_AUTHENTICATOR, API_TOKEN_PREFIX, ApiTokenAuthenticator } from './api-token-authenticator';
import { AuthStateCache } from './auth-state.cache';
import { JwtService } from './jwt.service';
import { Principal } from '../../access/principal';

/** Turns an Authorization header into a Principal of the current client, or throws a 401/403. */
@Injectable()
export class Authenticator implements BearerAuthenticator {
  constructor(
    private readonly jwt: JwtService,
    private readonly cache: AuthStateCache,
    private readonly db: TenantDatabase,
    @Optional() @Inject(API_TOKEN_AUTHENTICATOR) private readonly apiTokens?: ApiTokenAuthenticator,
  ) {}

  async authenticate(authorization: string | undefined): Promise<Principal> {
    const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
    if (!match) throw AppError.unauthorized('No token supplied', 'UNAUTHORIZED');
    const token = match[1];
    if (token.startsWith(API_TOKEN_PREFIX)) {
      if (!this.apiTokens) throw AppError.unauthorized('Invalid token', 'INVALID_TOKEN');
      return this.apiTokens.authenticate(token);
    }
    const claims = this.jwt.verify(token);
    if (claims.typ === '2fa') throw AppError.forbidden('A 2FA code is required', '2FA_REQUIRED');
    if (claims.typ) throw AppError.unauthorized('Invalid token', 'INVALID_TOKEN');
    const { client } = tenantContext.get();
    if (claims.cid !== client.identifier) throw AppError.unauthorized('Invalid token', 'INVALID_TOKEN');
    const userId = Number(claims.sub);
    if (!Number.isInteger(userId)) throw AppError.unauthorized('Invalid token', 'INVALID_TOKEN');
    const dataSource = await this.db.forClient(client);
    const state = await this.cache.get(client.identifier, userId, dataSource);
    if (!state || state.deleted) throw AppError.unauthorized('Invalid token', 'INVALID_TOKEN');
    if (state.blocked) throw AppError.unauthorized('User is blocked', 'INVALID_TOKEN');
    if (state.tokenVersion !== claims.tv) throw AppError.unauthorized('Token revoked', 'INVALID_TOKEN');
    return {
      userId,
      email: state.email,
      username: state.username,
      roleId: state.roleId,
      role: state.role,
      companyId: state.companyId,
      permissions: state.permissions,
      via: 'jwt',
    };
  }
}
