import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { tenantContext } from '../../tenancy/tenant-context';
import { User } from '../users/entities/user.entity';
import { UsersRepository } from '../users/users.repository';
import { AuthStateCache } from './auth-state.cache';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { SecurityAudit } from './security-audit';
import { SessionService } from './session.service';
import { sha256 } from '../../common/crypto/token-hash';

export interface RefreshResponse {
  jwt: string;
  refreshToken: string;
}

type Outcome =
  | { kind: 'rotated'; user: User; refreshToken: string }
  | { kind: 'reused'; userId: number }
  | { kind: 'invalid' }
  | { kind: 'expired' };

const invalid = () => AppError.unauthorized('Invalid refresh token', 'INVALID_TOKEN');

/**
 * Refresh-token rotation. The row is locked while it is rotated, so of two parallel refreshes with
 * one token the second sees it rotated: that is reuse, and reuse revokes the whole family, the
 * newest token included.
 */
@Injectable()
export class RefreshTokenService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly sessions: SessionService,
    private readonly securityAudit: SecurityAudit,
    private readonly cache: AuthStateCache,
    private readonly tokens: RefreshTokensRepository,
    private readonly users: UsersRepository,
  ) {}

  async refresh(token: string): Promise<RefreshResponse> {
    const outcome = await this.db.production((m) =>
      m.transaction(async (tx): Promise<Outcome> => {
        const row = await this.tokens.lockByHash(tx, sha256(token));
        if (!row) return { kind: 'invalid' };
        if (row.revoked_at || row.rotated_at) {
          await this.tokens.revokeFamily(tx, row.family_id);
          return { kind: 'reused', userId: row.user_id };
        }
        if (new Date(row.expires_at).getTime() <= Date.now()) return { kind: 'expired' };
        const user = await this.users.findWithRole(tx, row.user_id);
        if (!user || user.deletedAt || user.blocked) return { kind: 'invalid' };
        await this.tokens.markRotated(tx, row.id);
        const refreshToken = await this.sessions.createRefreshToken(tx, user.id, row.family_id);
        return { kind: 'rotated', user, refreshToken };
      }),
    );
    switch (outcome.kind) {
      case 'invalid':
        throw invalid();
      case 'expired':
        throw AppError.unauthorized('Refresh token expired', 'TOKEN_EXPIRED');
      case 'reused':
        await this.securityAudit.record('REFRESH_TOKEN_REUSED', {
          action: 'LOGOUT',
          entityType: 'User',
          entityId: outcome.userId,
          userId: outcome.userId,
          message: 'A rotated refresh token was reused; its whole session family was revoked',
        });
        throw invalid();
      case 'rotated':
        return { jwt: this.sessions.accessToken(outcome.user), refreshToken: outcome.refreshToken };
    }
  }

  /**
   * Logout: ends every session of the token's user, the access tokens issued before included (the
   * token version moves on). A token that is unknown, or already revoked, answers 401.
   */
  async logout(token: string): Promise<void> {
    const user = await this.db.production((m) =>
      m.transaction(async (tx) => {
        const holder = await this.tokens.lockHolder(tx, sha256(token));
        if (!holder) return null;
        await this.sessions.endAll(tx, holder.id);
        return holder;
      }),
    );
    if (!user) throw invalid();
    await this.cache.invalidate(tenantContext.get().client.identifier, user.id);
    await this.securityAudit.record('LOGOUT', {
      action: 'LOGOUT',
      entityType: 'User',
      entityId: user.id,
      userId: user.id,
      username: user.email,
      message: 'Logged out: every session of the user ended',
    });
  }
}
