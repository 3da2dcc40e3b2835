import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { EnvelopeBError } from '../common/errors/app-error';
import { modifyReturning } from '../database/sql';
import { MailService } from '../mail/mail.service';
import { tenantContext } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';
import { AuthSettings } from './auth.settings';
import { AuthStateCache } from './auth-state.cache';
import { PasswordHasher } from './password-hasher';
import { sha256 } from './token-hash';

export const RESET_MESSAGES = {
  invalidCode: 'Invalid or expired reset code',
  mismatch: 'Password confirmation does not match',
  tooShort: 'Password must be at least 8 characters',
} as const;

const RESET_FIELDS = new Set(['code', 'password', 'passwordConfirmation']);

/** Reset codes (password setup after provisioning, forgot-password) and their redemption. */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly hasher: PasswordHasher,
    private readonly cache: AuthStateCache,
    private readonly mail: MailService,
    private readonly settings: AuthSettings,
  ) {}

  /** Stores the hash of a new UUID-form code on the user and returns the code. */
  async issueCode(manager: EntityManager, userId: number): Promise<string> {
    const code = randomUUID();
    const expires = new Date(Date.now() + this.settings.PASSWORD_RESET_TTL_MINUTES * 60_000);
    await manager.query(
      'UPDATE public.users SET reset_token_hash = $2, reset_token_expires_at = $3 WHERE id = $1',
      [userId, sha256(code), expires],
    );
    return code;
  }

  /** Validates a raw body by hand so every failure answers in envelope B. */
  async reset(body: unknown): Promise<{ success: true; data: string }> {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new EnvelopeBError(RESET_MESSAGES.invalidCode);
    const input = body as Record<string, unknown>;
    const unknown = Object.keys(input).find((key) => !RESET_FIELDS.has(key));
    if (unknown) throw new EnvelopeBError(`Unknown field: ${unknown}`);
    const { code, password, passwordConfirmation } = input;
    if (typeof code !== 'string' || code.length === 0 || code.length > 200) {
      throw new EnvelopeBError(RESET_MESSAGES.invalidCode);
    }
    if (typeof password !== 'string' || password.length < 8)
      throw new EnvelopeBError(RESET_MESSAGES.tooShort);
    if (password.length > 200) throw new EnvelopeBError('Password must be at most 200 characters');
    if (passwordConfirmation !== password) throw new EnvelopeBError(RESET_MESSAGES.mismatch);

    const passwordHash = await this.hasher.hash(password);
    const user = await this.db.transaction(async (m) => {
      const [row] = await modifyReturning<{ id: number; email: string }>(
        m,
        `UPDATE public.users
            SET password_hash = $2, password_changed_at = now(), token_version = token_version + 1,
                reset_token_hash = NULL, reset_token_expires_at = NULL, confirmed = true,
                failed_login_count = 0, locked_until = NULL, updated_at = now()
          WHERE reset_token_hash = $1 AND reset_token_expires_at > now() AND deleted_at IS NULL
          RETURNING id, email`,
        [sha256(code), passwordHash],
      );
      if (!row) return null;
      await m.query(
        'UPDATE public.refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL',
        [row.id],
      );
      return row;
    });
    if (!user) throw new EnvelopeBError(RESET_MESSAGES.invalidCode);
    await this.cache.invalidate(tenantContext.get().client.identifier, user.id);
    await this.mail.send({
      to: user.email,
      subject: 'Your password was changed',
      text: 'Your password has just been reset. If this was not you, contact your administrator at once.',
    });
    return { success: true, data: 'Your password has been reset.' };
  }
}
