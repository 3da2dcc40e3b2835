import { Injectable, Logger } from '@nestjs/common';
import { AuditWriter, diffChanges } from '../audit/audit-writer';
import { AppError } from '../common/errors/app-error';
import { modifyReturning } from '../database/sql';
import { MailService } from '../mail/mail.service';
import { ClientLinks } from '../tenancy/client-links';
import { tenantContext } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';
import { roleIdOf } from '../users/default-data.seeder';
import { UserQuota } from '../users/user-quota';
import { AuthSettings } from './auth.settings';
import { normalizeIdentifier } from './client-address';
import { RegisterDto, RegisterResponseDto } from './dto/register.dto';
import { PasswordHasher } from './password-hasher';
import { randomToken, sha256 } from './token-hash';

/** Self-registration: a VIEWER in the default company, blocked until the e-mail is confirmed. */
@Injectable()
export class RegistrationService {
  private readonly logger = new Logger(RegistrationService.name);

  constructor(
    private readonly db: TenantDatabase,
    private readonly hasher: PasswordHasher,
    private readonly quota: UserQuota,
    private readonly mail: MailService,
    private readonly links: ClientLinks,
    private readonly settings: AuthSettings,
    private readonly audit: AuditWriter,
  ) {}

  async register(dto: RegisterDto): Promise<RegisterResponseDto> {
    const email = normalizeIdentifier(dto.email);
    const passwordHash = await this.hasher.hash(dto.password);
    const token = randomToken(32);
    const expires = new Date(Date.now() + this.settings.EMAIL_CONFIRMATION_TTL_HOURS * 3600_000);
    const user = await this.db.production((m) =>
      m.transaction(async (tx) => {
        await this.quota.ensureRoom(tx);
        const [taken] = await tx.query(
          'SELECT 1 FROM public.users WHERE lower(email) = $1 OR lower(username) = $1',
          [email],
        );
        if (taken) throw AppError.conflict('An account with this e-mail already exists');
        const [company] = await tx.query('SELECT id FROM public.companies ORDER BY id LIMIT 1');
        const [created] = await tx.query(
          `INSERT INTO public.users (email, username, first_name, last_name, password_hash, role_id, company_id,
                                     blocked, confirmed, confirmation_token_hash, confirmation_expires_at)
           VALUES ($1, $1, $2, $3, $4, $5, $6, true, false, $7, $8)
           RETURNING id, email, first_name AS "firstName", last_name AS "lastName", company_id AS "companyId"`,
          [
            email,
            dto.firstName.trim(),
            dto.lastName.trim(),
            passwordHash,
            await roleIdOf(tx, 'VIEWER'),
            company?.id ?? null,
            sha256(token),
            expires,
          ],
        );
        await this.audit.record(tx, {
          action: 'CREATE',
          entityType: 'User',
          entityId: created.id,
          userId: created.id,
          username: created.email,
          message: 'User registered',
          changes: diffChanges(null, { ...created, role: 'VIEWER' }),
          metadata: { event: 'USER_REGISTERED' },
        });
        return created as { id: number; email: string };
      }),
    );
    const link = this.links.link(tenantContext.get().client, '/auth/email-confirmation', {
      confirmation: token,
    });
    await this.mail.send({
      to: user.email,
      subject: 'Confirm your e-mail address',
      text: `Welcome! Confirm your e-mail address to activate your account (valid ${this.settings.EMAIL_CONFIRMATION_TTL_HOURS} hours): ${link}`,
    });
    return {
      data: { id: user.id, email: user.email, confirmed: false },
      meta: { message: 'Check your e-mail to confirm your address' },
    };
  }

  async confirm(token: unknown): Promise<{ data: { confirmed: true } }> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) {
      throw AppError.badRequest('confirmation must be the token from the e-mail');
    }
    const rows = await this.db.production((m) =>
      m.transaction(async (tx) => {
        const updated = await modifyReturning<{ id: number; email: string }>(
          tx,
          `UPDATE public.users
              SET confirmed = true, blocked = false, confirmation_token_hash = NULL,
                  confirmation_expires_at = NULL, updated_at = now()
            WHERE confirmation_token_hash = $1 AND confirmation_expires_at > now() AND deleted_at IS NULL
            RETURNING id, email`,
          [sha256(token)],
        );
        for (const row of updated) {
          await this.audit.record(tx, {
            action: 'UPDATE',
            entityType: 'User',
            entityId: row.id,
            userId: row.id,
            username: row.email,
            message: 'E-mail address confirmed',
            changes: { confirmed: { old: false, new: true } },
            metadata: { event: 'EMAIL_CONFIRMED' },
          });
        }
        return updated;
      }),
    );
    if (rows.length === 0)
      throw AppError.badRequest('Invalid or expired confirmation token', 'INVALID_TOKEN');
    this.logger.debug(`Confirmed user ${rows[0].id}`);
    return { data: { confirmed: true } };
  }
}
