import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { AuditWriter } from '../../audit-trail/audit-writer';
import { EnvelopeBError } from '../../common/errors/app-error';
import { MailService } from '../../mail/mail.service';
import { ClientLinks } from '../../tenancy/client-links';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AuthSettings } from './auth.settings';
import { AuthStateCache } from './auth-state.cache';
import { clientIdentifier, normalizeIdentifier } from './client-address';
import { PasswordHasher } from './password-hasher';
import { PasswordsRepository } from './passwords.repository';
import { RateLimiter } from '../../rate-limits/rate-limiter';
import { SecurityAudit } from './security-audit';
import { SessionService } from './session.service';
import { sha256 } from '../../common/crypto/token-hash';

export const RESET_MESSAGES = {
  invalidCode: 'Invalid or expired reset code',
  mismatch: 'Password confirmation does not match',
  tooShort: 'Password must be at least 8 characters',
  emailRequired: 'Email is required',
} as const;

export const FORGOT_PASSWORD_ANSWER =
  'If an account exists for this e-mail address, a password reset link has been sent.';

const RESET_FIELDS = new Set(['code', 'password', 'passwordConfirmation']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Validates a raw body by hand so every failure answers in envelope B. */
export function readBody(body: unknown, fields: Set<string>): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const input = body as Record<string, unknown>;
  const unknown = Object.keys(input).find((key) => !fields.has(key));
  if (unknown) throw new EnvelopeBError(`Unknown field: ${unknown}`);
  return input;
}

/** Reset codes (password setup after provisioning, forgot-password) and their redemption. */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger(PasswordResetService.name);

  constructor(
    private readonly db: TenantDatabase,
    private readonly hasher: PasswordHasher,
    private readonly cache: AuthStateCache,
    private readonly mail: MailService,
    private readonly settings: AuthSettings,
    private readonly links: ClientLinks,
    private readonly limiter: RateLimiter,
    private readonly sessions: SessionService,
    private readonly audit: AuditWriter,
    private readonly securityAudit: SecurityAudit,
    private readonly passwords: PasswordsRepository,
  ) {}

  /** Stores the hash of a new UUID-form code on the user and returns the code. */
  async issueCode(manager: EntityManager, userId: number): Promise<string> {
    const code = randomUUID();
    const expires = new Date(Date.now() + this.settings.PASSWORD_RESET_TTL_MINUTES * 60_000);
    await this.passwords.setResetCode(manager, userId, sha256(code), expires);
    return code;
  }

  /**
   * Always the same answer, whether or not the e-mail exists, and past the per-e-mail limit. The
   * mail goes out after the answer so its delay tells nothing either.
   */
  async forgot(body: unknown): Promise<{ success: true; data: string }> {
    const { email } = readBody(body, new Set(['email']));
    if (typeof email !== 'string' || email.trim() === '')
      throw new EnvelopeBError(RESET_MESSAGES.emailRequired);
    if (email.length > 254 || !EMAIL.test(email.trim())) throw new EnvelopeBError('Email is invalid');
    const normalized = normalizeIdentifier(email);
    const allowed = await this.limiter.allow('forgot', {
      key: [clientIdentifier(), normalized],
      limit: this.settings.AUTH_FORGOT_PASSWORD_LIMIT,
      windowSeconds: this.settings.AUTH_FORGOT_PASSWORD_WINDOW_SECONDS,
    });
    const store = tenantContext.get();
    // Known and unknown addresses run the same statements (an UPDATE that matches no row, an audit
    // entry), so the answer's timing does not tell whether the address has an account.
    const issued = await this.db.transaction(async (m) => {
      const user = await this.passwords.findResettable(m, normalized);
      const code = await this.issueCode(m, user && allowed ? user.id : 0);
      await this.audit.record(m, {
        action: 'ACCESS',
        entityType: 'User',
        entityId: user?.id ?? null,
        userId: user?.id ?? null,
        username: user?.email ?? normalized,
        message: !user
          ? 'Password reset requested for an address without an active account; no mail sent'
          : allowed
            ? 'Password reset requested'
            : 'Password reset requested past the limit; no mail sent',
        metadata: { event: 'PASSWORD_RESET_REQUESTED', mailSent: Boolean(user) && allowed },
      });
      return user && allowed ? { email: user.email, code } : null;
    });
    if (issued) {
      const link = this.links.link(store.client, '/reset-password', { code: issued.code });
      void this.mail
        .send({
          to: issued.email,
          subject: 'Reset your password',
          text: `Someone asked to reset the password of this account.\n\nChoose a new password here (valid ${this.settings.PASSWORD_RESET_TTL_MINUTES} minutes): ${link}\n\nIf this was not you, ignore this e-mail.`,
        })
        .catch((err: Error) => this.logger.warn(`Reset mail failed: ${err.message}`));
    }
    return { success: true, data: FORGOT_PASSWORD_ANSWER };
  }

  async reset(body: unknown): Promise<{ success: true; data: string }> {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new EnvelopeBError(RESET_MESSAGES.invalidCode);
    const { code, password, passwordConfirmation } = readBody(body, RESET_FIELDS);
    if (typeof code !== 'string' || code.length === 0 || code.length > 200) {
      throw new EnvelopeBError(RESET_MESSAGES.invalidCode);
    }
    if (typeof password !== 'string' || password.length < 8)
      throw new EnvelopeBError(RESET_MESSAGES.tooShort);
    if (password.length > 200) throw new EnvelopeBError('Password must be at most 200 characters');
    if (passwordConfirmation !== password) throw new EnvelopeBError(RESET_MESSAGES.mismatch);

    // The code first: a wrong one never costs a bcrypt hash.
    const held = await this.passwords.codeHeld(sha256(code));
    const passwordHash = held ? await this.hasher.hash(password) : null;
    // A wrong code pays neither a hash nor an empty transaction (BEGIN and COMMIT are round trips).
    const user = !passwordHash
      ? null
      : await this.db.transaction(async (m) => {
          const row = await this.passwords.resetWithCode(m, sha256(code), passwordHash);
          if (!row) return null;
          await this.sessions.revokeAll(m, row.id);
          await this.audit.record(m, {
            action: 'UPDATE',
            entityType: 'User',
            entityId: row.id,
            userId: row.id,
            username: row.email,
            message: 'Password reset completed',
            metadata: { event: 'PASSWORD_RESET_COMPLETED' },
          });
          return row;
        });
    if (!user) {
      await this.securityAudit.record('PASSWORD_RESET_FAILED', {
        action: 'ACCESS',
        entityType: 'User',
        message: 'Password reset with an invalid or expired code',
        metadata: { success: false },
      });
      throw new EnvelopeBError(RESET_MESSAGES.invalidCode);
    }
    await this.cache.invalidate(tenantContext.get().client.identifier, user.id);
    await this.mail.send({
      to: user.email,
      subject: 'Your password was changed',
      text: 'Your password has just been reset. If this was not you, contact your administrator at once.',
    });
    return { success: true, data: 'Your password has been reset.' };
  }
}
