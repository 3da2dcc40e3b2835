import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { TenantDatabase } from '../tenancy/tenant-database';
import { User } from '../users/entities/user.entity';
import { SecurityAudit } from './security-audit';
import { SessionService } from './session.service';
import { sha256 } from './token-hash';

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

  /** Revokes the family of a refresh token (logout). Unknown tokens answer 401. */
  async logout(token: string): Promise<void> {
    const [rows] = await this.db.production((m) =>
      m.query(
        `UPDATE public.refresh_tokens SET revoked_at = now()
          WHERE family_id = (SELECT family_id FROM public.refresh_tokens WHERE token_hash = $1)
            AND revoked_at IS NULL
          RETURNING user_id, (SELECT u.email FROM public.users u WHERE u.id = refresh_tokens.user_id) AS email`,
        [sha256(token)],
      ),
    );
    const row = (rows as { user_id: number; email: string }[])[0];
    if (!row) throw invalid();
    const userId = row.user_id;
    await this.securityAudit.record('LOGOUT', {
      action: 'LOGOUT',
      entityType: 'User',
      entityId: userId,
      userId,
      username: row.email,
      message: 'Logged out',
    });
  }
}
