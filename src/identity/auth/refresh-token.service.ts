import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { tenantContext } from '../../tenancy/tenant-context';
import { User } from '../users/entities/user.entity';
import { AuthStateCache } from './auth-state.cache';
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
  ) {}

  async refresh(token: string): Promise<RefreshResponse> {
    const outcome = await this.db.production((m) =>
      m.transaction(async (tx): Promise<Outcome> => {
        const [row] = await tx.query(
          `SELECT id, user_id, family_id, expires_at, revoked_at, rotated_at
             FROM public.refresh_tokens WHERE token_hash = $1 FOR UPDATE`,
          [sha256(token)],
        );
        if (!row) return { kind: 'invalid' };
        if (row.revoked_at || row.rotated_at) {
          await tx.query(
            'UPDATE public.refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL',
            [row.family_id],
          );
          return { kind: 'reused', userId: row.user_id };
        }
        if (new Date(row.expires_at).getTime() <= Date.now()) return { kind: 'expired' };
        const user = await tx
          .getRepository(User)
          .findOne({ where: { id: row.user_id }, relations: { role: true } });
        if (!user || user.deletedAt || user.blocked) return { kind: 'invalid' };
        await tx.query('UPDATE public.refresh_tokens SET rotated_at = now() WHERE id = $1', [row.id]);
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
        const [row] = await tx.query(
          `SELECT t.user_id, u.email FROM public.refresh_tokens t JOIN public.users u ON u.id = t.user_id
            WHERE t.token_hash = $1 AND t.revoked_at IS NULL
            FOR UPDATE OF u`,
          [sha256(token)],
        );
        if (!row) return null;
        await this.sessions.endAll(tx, row.user_id);
        return { id: row.user_id as number, email: row.email as string };
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
