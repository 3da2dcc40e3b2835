import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { UsersRepository } from '../users/users.repository';
import { accountLocked, LoginLocks } from './account-lock';
import { AuthSettings } from './auth.settings';
import { clientAddress, clientIdentifier, normalizeIdentifier } from './client-address';
import { LoginDto } from './dto/login.dto';
import { PasswordHasher } from './password-hasher';
import { Limit, RateLimiter } from '../../rate-limits/rate-limiter';
import { LoginSuccess, TwoFactorPending } from './login-success';
import { SecurityAudit } from './security-audit';
import { LoginResponse } from './session.service';

const invalidCredentials = () =>
  AppError.unauthorized('Invalid identifier or password', 'INVALID_CREDENTIALS');

/**
 * Password login: rate limit first, then the password (always hashed, so unknown identifiers take as
 * long as wrong passwords), then the locks (LoginLocks), block and confirmation states.
 */
@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly settings: AuthSettings,
    private readonly limiter: RateLimiter,
    private readonly securityAudit: SecurityAudit,
    private readonly locks: LoginLocks,
    private readonly success: LoginSuccess,
  ) {}

  async login(dto: LoginDto): Promise<LoginResponse | TwoFactorPending> {
    const identifier = normalizeIdentifier(dto.identifier);
    const limits = this.loginLimits(identifier);
    await this.limiter.consume('login', limits);
    const user = await this.users.findForLogin(identifier);
    const valid = await this.hasher.verify(dto.password, user?.passwordHash);
    const lock = await this.locks.check(user);
    if (!user) {
      // The same statements as a wrong password (matching no row), so both failures take as long.
      await this.locks.failed(null);
      await this.failed(null, identifier, 'unknown identifier');
      throw invalidCredentials();
    }
    if (lock) {
      await this.failed(
        user.id,
        user.email,
        lock === 'address' ? 'locked for this address' : 'account locked',
      );
      throw accountLocked();
    }
    if (!valid) {
      await this.locks.failed(user);
      await this.failed(user.id, user.email, 'wrong password');
      throw invalidCredentials();
    }
    if (user.blocked) {
      await this.failed(user.id, user.email, user.confirmed ? 'blocked' : 'e-mail not confirmed');
      if (!user.confirmed) throw AppError.forbidden('E-mail address not confirmed', 'EMAIL_NOT_CONFIRMED');
      throw invalidCredentials();
    }
    return this.success.firstFactor(user, 'password');
  }

  /**
   * Attempts per address, and per address and identifier (5 a minute, 30 a minute by default).
   * Every attempt counts, and the limit is checked before the password.
   */
  private loginLimits(identifier: string): Limit[] {
    const windowSeconds = this.settings.AUTH_RATE_WINDOW_SECONDS;
    return [
      { key: ['address', clientAddress()], limit: this.settings.AUTH_LOGIN_LIMIT_PER_ADDRESS, windowSeconds },
      {
        key: ['identifier', clientIdentifier(), clientAddress(), identifier],
        limit: this.settings.AUTH_LOGIN_LIMIT_PER_IDENTIFIER,
        windowSeconds,
      },
    ];
  }

  private failed(userId: number | null, username: string, reason: string) {
    return this.securityAudit.record('LOGIN_FAILED', {
      action: 'LOGIN',
      entityType: 'User',
      entityId: userId,
      userId,
      username,
      message: `Login failed: ${reason}`,
      metadata: { success: false, reason },
    });
  }
}
