import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditWriter } from '../../../audit-trail/audit-writer';
import { SecretBox } from '../../../common/crypto/secret-box';
import { AppError } from '../../../common/errors/app-error';
import { TenantDatabase } from '../../../tenancy/tenant-database';
import { User } from '../../users/entities/user.entity';
import { accountLocked, LockScope, LoginLocks } from '../account-lock';
import { AuthSettings } from '../auth.settings';
import { clientAddress, clientIdentifier } from '../client-address';
import { Principal } from '../../../access/principal';
import { RateLimiter } from '../../../rate-limits/rate-limiter';
import { LoginMethod, LoginSuccess } from '../login-success';
import { SecurityAudit } from '../security-audit';
import { LoginResponse } from '../session.service';
import { JwtService } from '../jwt.service';
import { hashRecoveryCode, newRecoveryCodes, RECOVERY_CODE_PATTERN } from './recovery-codes';
import { matchTotpStep, newTotpSecret, otpauthUri } from './totp';
import { TwoFactorChallenges } from './two-factor-challenge.service';
import { TwoFactorRepository } from './two-factor.repository';

export interface EnrolmentResponse {
  secret: string;
  qrCodeUrl: string;
  recoveryCodes: string[];
}

const wrongCode = () => AppError.unauthorized('Invalid two-factor code', 'INVALID_CREDENTIALS');
const onlyUsers = (principal: Principal) => {
  if (principal.via !== 'jwt') throw AppError.forbidden('API tokens cannot manage two-factor authentication');
};
const badCode = () => AppError.badRequest('Invalid two-factor code', 'INVALID_2FA_CODE');

/** TOTP enrolment, the second step of login, recovery codes and disabling. */
@Injectable()
export class TwoFactorService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly secrets: SecretBox,
    private readonly settings: AuthSettings,
    private readonly challenges: TwoFactorChallenges,
    private readonly limiter: RateLimiter,
    private readonly jwt: JwtService,
    private readonly audit: AuditWriter,
    private readonly securityAudit: SecurityAudit,
    private readonly locks: LoginLocks,
    private readonly repo: TwoFactorRepository,
    private readonly success: LoginSuccess,
  ) {}

  async enable(principal: Principal): Promise<EnrolmentResponse> {
    onlyUsers(principal);
    const user = await this.load(this.db, principal.userId);
    if (user.twoFactorEnabled) throw AppError.conflict('Two-factor authentication is already enabled');
    const secret = newTotpSecret();
    const recoveryCodes = newRecoveryCodes();
    await this.db.production((m) =>
      this.repo.startEnrolment(m, user.id, this.secrets.encrypt(secret), recoveryCodes.map(hashRecoveryCode)),
    );
    return {
      secret,
      qrCodeUrl: otpauthUri(secret, user.email, this.settings.TWO_FACTOR_ISSUER),
      recoveryCodes,
    };
  }

  async verify(principal: Principal, code: string): Promise<{ data: { enabled: true } }> {
    onlyUsers(principal);
    await this.db.production((m) =>
      m.transaction(async (tx) => {
        const user = await this.load(tx, principal.userId, true);
        if (!user.twoFactorPendingSecret) {
          throw AppError.badRequest('No two-factor enrolment is pending; call /auth/2fa/enable first');
        }
        const step = matchTotpStep(
          this.secrets.decrypt(user.twoFactorPendingSecret),
          code,
          this.settings.TWO_FACTOR_WINDOW,
        );
        if (step === null) throw badCode();
        await this.repo.completeEnrolment(tx, user.id, step);
        await this.audit.record(tx, {
          action: 'UPDATE',
          entityType: 'User',
          entityId: user.id,
          message: 'Two-factor authentication enabled',
          changes: { twoFactorEnabled: { old: false, new: true } },
          metadata: { event: 'TWO_FACTOR_ENABLED' },
        });
      }),
    );
    return { data: { enabled: true } };
  }

  async disable(principal: Principal, code: string): Promise<{ data: { enabled: false } }> {
    onlyUsers(principal);
    await this.db.production((m) =>
      m.transaction(async (tx) => {
        const user = await this.load(tx, principal.userId, true);
        if (!user.twoFactorEnabled) throw AppError.badRequest('Two-factor authentication is not enabled');
        if (!(await this.acceptSecondFactor(tx, user, code))) throw badCode();
        await this.repo.disable(tx, user.id);
        await this.audit.record(tx, {
          action: 'UPDATE',
          entityType: 'User',
          entityId: user.id,
          message: 'Two-factor authentication disabled',
          changes: { twoFactorEnabled: { old: true, new: false } },
          metadata: { event: 'TWO_FACTOR_DISABLED' },
        });
      }),
    );
    return { data: { enabled: false } };
  }

  /** Second step of a password login with a TOTP code. */
  authenticate(tempToken: string, code: string): Promise<LoginResponse> {
    return this.complete(tempToken, 'totp', (tx, user) => this.acceptTotp(tx, user, code));
  }

  /** Second step of a password login with a recovery code (each works once). */
  recover(tempToken: string, recoveryCode: string): Promise<LoginResponse> {
    return this.complete(tempToken, 'recovery_code', (tx, user) =>
      this.acceptRecoveryCode(tx, user, recoveryCode),
    );
  }

  private async complete(
    tempToken: string,
    method: Extract<LoginMethod, 'totp' | 'recovery_code'>,
    accept: (tx: EntityManager, user: User) => Promise<boolean>,
  ): Promise<LoginResponse> {
    const unverified = this.jwt.verify(tempToken);
    await this.limiter.consume('2fa', [
      {
        key: [clientIdentifier(), clientAddress(), unverified.sub],
        limit: this.settings.AUTH_2FA_LIMIT,
        windowSeconds: this.settings.AUTH_RATE_WINDOW_SECONDS,
      },
    ]);
    const claims = await this.challenges.open(tempToken);
    const userId = Number(claims.sub);
    const outcome = await this.db.production((m) =>
      m.transaction(async (tx): Promise<{ user: User; accepted: boolean; lock: LockScope | null }> => {
        const found = await this.load(tx, userId, true).catch(() => null);
        if (
          !found ||
          found.blocked ||
          found.deletedAt ||
          found.tokenVersion !== claims.tv ||
          !found.twoFactorEnabled
        ) {
          throw AppError.unauthorized('Invalid token', 'INVALID_TOKEN');
        }
        const lock = await this.locks.check(found, tx);
        if (lock) return { user: found, accepted: false, lock };
        return { user: found, accepted: await accept(tx, found), lock: null };
      }),
    );
    const { user } = outcome;
    if (outcome.lock) {
      await this.loginFailed(
        user,
        method,
        outcome.lock === 'address' ? 'locked for this address' : 'account locked',
      );
      throw accountLocked();
    }
    if (!outcome.accepted) {
      await this.challenges.failed(claims.jti);
      // A wrong second factor is a failed login: it counts toward both locks like a wrong password.
      await this.locks.failed(user);
      await this.loginFailed(user, method, 'wrong code');
      throw wrongCode();
    }
    if (!(await this.challenges.consume(claims.jti))) {
      throw AppError.unauthorized('This two-factor challenge has ended; log in again', 'INVALID_TOKEN');
    }
    return this.success.complete(user, method);
  }

  private loginFailed(user: User, method: string, reason: string) {
    return this.securityAudit.record('LOGIN_FAILED', {
      action: 'LOGIN',
      entityType: 'User',
      entityId: user.id,
      userId: user.id,
      username: user.email,
      message: `Two-factor login failed: ${reason}`,
      metadata: { success: false, method, reason },
    });
  }

  private acceptSecondFactor(tx: EntityManager, user: User, code: string): Promise<boolean> {
    return RECOVERY_CODE_PATTERN.test(code.trim().toUpperCase())
      ? this.acceptRecoveryCode(tx, user, code)
      : this.acceptTotp(tx, user, code);
  }

  /** A code is accepted once: its time step must be later than the last accepted one. */
  private async acceptTotp(tx: EntityManager, user: User, code: string): Promise<boolean> {
    if (!user.twoFactorSecret) return false;
    const step = matchTotpStep(
      this.secrets.decrypt(user.twoFactorSecret),
      code,
      this.settings.TWO_FACTOR_WINDOW,
    );
    if (step === null) return false;
    return this.repo.acceptStep(tx, user.id, step);
  }

  private async acceptRecoveryCode(tx: EntityManager, user: User, code: string): Promise<boolean> {
    if (!RECOVERY_CODE_PATTERN.test(code.trim().toUpperCase())) return false;
    return this.repo.useRecoveryCode(tx, user.id, hashRecoveryCode(code));
  }

  private async load(db: EntityManager | TenantDatabase, userId: number, lock = false): Promise<User> {
    const user =
      db instanceof TenantDatabase
        ? await db.production((m) => this.repo.findWithSecrets(m, userId, lock))
        : await this.repo.findWithSecrets(db, userId, lock);
    if (!user) throw AppError.unauthorized('Invalid token', 'INVALID_TOKEN');
    return user;
  }
}
