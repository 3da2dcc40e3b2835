import { Injectable } from '@nestjs/common';
import { User } from '../users/entities/user.entity';
import { LoginLocks } from './account-lock';
import { SecurityAudit } from './security-audit';
import { LoginResponse, SessionService } from './session.service';
import { TwoFactorChallenges } from './two-factor/two-factor-challenge.service';

export type TwoFactorPending = { requires2FA: true; tempToken: string };

/** How a login was completed: the first factor alone, or the second factor after it. */
export type FirstFactor = 'password' | 'sso';
export type LoginMethod = FirstFactor | 'totp' | 'recovery_code';

interface MethodRules {
  /** Message of the LOGIN_SUCCESS audit entry; null when the caller records the login itself. */
  audited: string | null;
  /** Whether the login ends the failed-attempt counts and address locks. */
  resetsLocks: boolean;
}

const TWO_FACTOR: MethodRules = { audited: 'Logged in with two-factor authentication', resetsLocks: true };

const METHODS: Record<LoginMethod, MethodRules> = {
  password: { audited: 'Logged in', resetsLocks: true },
  totp: TWO_FACTOR,
  recovery_code: TWO_FACTOR,
  // SSO records SSO_LOGIN_SUCCESS in the transaction of the sign-in itself (with the identity's
  // last login and any provisioning), and never counts failed passwords: it leaves the locks alone.
  sso: { audited: null, resetsLocks: false },
};

const CHALLENGES: Record<FirstFactor, { message: string; metadata?: Record<string, unknown> }> = {
  password: { message: 'Password accepted; two-factor code required' },
  sso: { message: 'SSO login accepted; two-factor code required', metadata: { method: 'sso' } },
};

/** The end of every successful login (password, two-factor completion, SSO): one path, one place. */
@Injectable()
export class LoginSuccess {
  constructor(
    private readonly sessions: SessionService,
    private readonly locks: LoginLocks,
    private readonly securityAudit: SecurityAudit,
    private readonly challenges: TwoFactorChallenges,
  ) {}

  /**
   * A first factor was accepted: a user enrolled in two-factor authentication gets the challenge
   * (the failure counts stay until the second step succeeds), anyone else a session.
   */
  async firstFactor(user: User, method: FirstFactor): Promise<LoginResponse | TwoFactorPending> {
    if (user.twoFactorEnabled) {
      const { message, metadata } = CHALLENGES[method];
      return this.challenges.begin(user, message, metadata);
    }
    return this.complete(user, method);
  }

  /** Every factor passed: a session of a new family, the locks reset and the login audited. `user` has its role. */
  async complete(user: User, method: LoginMethod): Promise<LoginResponse> {
    const { audited, resetsLocks } = METHODS[method];
    const session = await this.sessions.issue(user);
    if (resetsLocks) await this.locks.succeeded(user.id);
    if (audited) {
      await this.securityAudit.record('LOGIN_SUCCESS', {
        action: 'LOGIN',
        entityType: 'User',
        entityId: user.id,
        userId: user.id,
        username: user.email,
        message: audited,
        metadata: { success: true, method },
      });
    }
    return session;
  }
}
