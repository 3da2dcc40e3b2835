import { Injectable } from '@nestjs/common';
import { AuditWriter } from '../../audit-trail/audit-writer';
import { AppError, EnvelopeBError } from '../../common/errors/app-error';
import { MailService } from '../../mail/mail.service';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AuthStateCache } from './auth-state.cache';
import { PasswordHasher } from './password-hasher';
import { PasswordsRepository } from './passwords.repository';
import { readBody } from './password-reset.service';
import { Principal } from '../../access/principal';
import { SessionService } from './session.service';

export const CHANGE_MESSAGES = {
  currentIncorrect: 'Current password is incorrect',
  tooShort: 'Password must be at least 6 characters',
  mismatch: 'Password confirmation does not match',
  currentRequired: 'Current password is required',
} as const;

const FIELDS = new Set(['currentPassword', 'password', 'passwordConfirmation']);

/** POST /api/custom/change-password: envelope B, and every session of the user ends. */
@Injectable()
export class PasswordChangeService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly hasher: PasswordHasher,
    private readonly cache: AuthStateCache,
    private readonly sessions: SessionService,
    private readonly mail: MailService,
    private readonly audit: AuditWriter,
    private readonly passwords: PasswordsRepository,
  ) {}

  async change(principal: Principal, body: unknown): Promise<{ success: true; data: null }> {
    if (principal.via !== 'jwt') throw AppError.forbidden('API tokens cannot change a password');
    const { currentPassword, password, passwordConfirmation } = readBody(body, FIELDS);
    if (typeof currentPassword !== 'string' || currentPassword.length === 0)
      throw new EnvelopeBError(CHANGE_MESSAGES.currentRequired);
    if (typeof password !== 'string' || password.length < 6)
      throw new EnvelopeBError(CHANGE_MESSAGES.tooShort);
    if (password.length > 200) throw new EnvelopeBError('Password must be at most 200 characters');
    if (passwordConfirmation !== password) throw new EnvelopeBError(CHANGE_MESSAGES.mismatch);

    const user = await this.passwords.findWithHash(principal.userId);
    if (!user || !(await this.hasher.verify(currentPassword, user.passwordHash)))
      throw new EnvelopeBError(CHANGE_MESSAGES.currentIncorrect);
    const passwordHash = await this.hasher.hash(password);
    await this.db.production((m) =>
      m.transaction(async (tx) => {
        await this.passwords.change(tx, user.id, passwordHash);
        await this.sessions.revokeAll(tx, user.id);
        await this.audit.record(tx, {
          action: 'UPDATE',
          entityType: 'User',
          entityId: user.id,
          message: 'Password changed; every session was logged out',
          metadata: { event: 'PASSWORD_CHANGE' },
        });
      }),
    );
    await this.cache.invalidate(tenantContext.get().client.identifier, user.id);
    await this.mail.send({
      to: user.email,
      subject: 'Your password was changed',
      text: 'The password of your account has just been changed and every session was logged out. If this was not you, contact your administrator at once.',
    });
    return { success: true, data: null };
  }
}
