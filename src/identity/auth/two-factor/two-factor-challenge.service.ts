import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../common/errors/app-error';
import { RedisService } from '../../../redis/redis.service';
import { tenantContext } from '../../../tenancy/tenant-context';
import { User } from '../../users/entities/user.entity';
import { AuthSettings } from '../auth.settings';
import { SecurityAudit } from '../security-audit';
import { AccessClaims, JwtService } from '../jwt.service';

const challengeEnded = () =>
  AppError.unauthorized('This two-factor challenge has ended; log in again', 'INVALID_TOKEN');

/**
 * The tempToken of a pending two-factor login: a short-lived JWT with `typ: '2fa'` (refused as a
 * bearer credential by the guard), single use, and ended by too many wrong codes. Use and attempt
 * counts live in Redis so every replica sees them.
 */
@Injectable()
export class TwoFactorChallenges {
  constructor(
    private readonly jwt: JwtService,
    private readonly redis: RedisService,
    private readonly settings: AuthSettings,
    private readonly securityAudit: SecurityAudit,
  ) {}

  /** The answer of a first step (password or SSO) for a user enrolled in 2FA, audited as pending. */
  async begin(user: User, message: string, metadata: Record<string, unknown> = {}) {
    await this.securityAudit.record('LOGIN_2FA_REQUIRED', {
      action: 'LOGIN',
      entityType: 'User',
      entityId: user.id,
      userId: user.id,
      username: user.email,
      message,
      metadata: { success: false, pending: true, ...metadata },
    });
    return { requires2FA: true as const, tempToken: this.issue(user) };
  }

  issue(user: User): string {
    return this.jwt.sign(
      {
        sub: String(user.id),
        email: user.email,
        role: user.role!.type,
        companyId: user.companyId,
        cid: tenantContext.get().client.identifier,
        tv: user.tokenVersion,
        typ: '2fa',
        jti: randomUUID(),
      },
      this.settings.TWO_FACTOR_TEMP_TOKEN_SECONDS,
    );
  }

  /** Verifies a tempToken of the current client that is still open; returns its claims. */
  async open(tempToken: string): Promise<AccessClaims & { jti: string }> {
    const claims = this.jwt.verify(tempToken);
    if (claims.typ !== '2fa' || !claims.jti || claims.cid !== tenantContext.get().client.identifier) {
      throw AppError.unauthorized('Invalid token', 'INVALID_TOKEN');
    }
    const [used, attempts] = await this.redis.client.mget(
      this.usedKey(claims.jti),
      this.attemptsKey(claims.jti),
    );
    if (used || Number(attempts ?? 0) >= this.settings.TWO_FACTOR_MAX_ATTEMPTS) throw challengeEnded();
    return claims as AccessClaims & { jti: string };
  }

  /** Counts a wrong code; the last allowed one ends the challenge. */
  async failed(jti: string): Promise<void> {
    const key = this.attemptsKey(jti);
    await this.redis.client.multi().incr(key).expire(key, this.settings.TWO_FACTOR_TEMP_TOKEN_SECONDS).exec();
  }

  /** Marks the tempToken used; false when another request used it first. */
  async consume(jti: string): Promise<boolean> {
    const set = await this.redis.client.set(
      this.usedKey(jti),
      '1',
      'EX',
      this.settings.TWO_FACTOR_TEMP_TOKEN_SECONDS,
      'NX',
    );
    return set === 'OK';
  }

  private usedKey(jti: string) {
    return this.redis.key('2fa', 'used', jti);
  }

  private attemptsKey(jti: string) {
    return this.redis.key('2fa', 'attempts', jti);
  }
}
