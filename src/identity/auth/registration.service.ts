import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditWriter, diffChanges } from '../../audit-trail/audit-writer';
import { AppError } from '../../common/errors/app-error';
import { Mail, MailService } from '../../mail/mail.service';
import { alreadyRegisteredMail, confirmationMail } from '../../mail/registration-mails';
import { ClientLinks } from '../../tenancy/client-links';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { CompaniesRepository } from '../users/companies.repository';
import { RegistrationsRepository, UserIdentity } from '../users/registrations.repository';
import { roleIdOf } from '../users/default-data.seeder';
import { UserQuota } from '../users/user-quota';
import { AuthSettings } from './auth.settings';
import { AuthStateCache } from './auth-state.cache';
import { normalizeIdentifier } from './client-address';
import { RegisterDto, RegisterResponseDto } from './dto/register.dto';
import { PasswordHasher } from './password-hasher';
import { randomToken, sha256 } from '../../common/crypto/token-hash';

export const REGISTRATION_ANSWER = 'Check your e-mail to confirm your address';

const registrationClosed = () =>
  AppError.forbidden('Self-registration is not open here', 'REGISTRATION_CLOSED');

/**
 * Self-registration in a client database: a VIEWER in the default company, blocked until the e-mail
 * is confirmed. A pending registration holds no seat and gives way to any later creation of its
 * address; a taken address gets the same answer as a new one and its owner a notice.
 */
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
    private readonly registrations: RegistrationsRepository,
    private readonly companies: CompaniesRepository,
    private readonly authStates: AuthStateCache,
  ) {}

  async register(dto: RegisterDto): Promise<RegisterResponseDto> {
    const { client } = tenantContext.get();
    if (client.isMaster || !this.settings.AUTH_REGISTRATION_ENABLED) throw registrationClosed();
    const email = normalizeIdentifier(dto.email);
    // Hashed for a taken address too, so both answers take as long.
    const passwordHash = await this.hasher.hash(dto.password);
    const token = randomToken(32);
    const ttlHours = this.settings.EMAIL_CONFIRMATION_TTL_HOURS;
    const registered = await this.db.production((m) =>
      m.transaction(async (tx) => {
        await this.quota.ensureRoom(tx);
        await this.quota.purgeExpired(tx);
        await this.quota.discardPending(tx, [email], 'a new registration');
        const owner = await this.registrations.findOwner(tx, email);
        if (owner) {
          await this.recordTakenAddress(tx, owner);
          return false;
        }
        await this.createPending(tx, dto, email, passwordHash, token, ttlHours);
        return true;
      }),
    );
    const mail: Mail = registered
      ? confirmationMail(
          email,
          this.links.link(client, '/auth/email-confirmation', { confirmation: token }),
          ttlHours,
        )
      : alreadyRegisteredMail(email, this.links.link(client, '/forgot-password', {}));
    // After the answer, so its delay tells nothing about the address either.
    void this.mail
      .send(mail)
      .catch((err: Error) => this.logger.warn(`Registration mail failed: ${err.message}`));
    return { data: { email, confirmed: false }, meta: { message: REGISTRATION_ANSWER } };
  }

  async confirm(token: unknown): Promise<{ data: { confirmed: true } }> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) {
      throw AppError.badRequest('confirmation must be the token from the e-mail');
    }
    const rows = await this.db.production((m) =>
      m.transaction(async (tx) => {
        const pending = await this.registrations.findPendingByToken(tx, sha256(token));
        if (pending === null) return [];
        // The seat is taken now: a pending registration never held one.
        await this.quota.ensureRoom(tx);
        const updated = await this.registrations.confirm(tx, pending, sha256(token));
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
    await this.authStates.invalidate(tenantContext.get().client.identifier, rows[0].id);
    this.logger.debug(`Confirmed user ${rows[0].id}`);
    return { data: { confirmed: true } };
  }

  private async createPending(
    tx: EntityManager,
    dto: RegisterDto,
    email: string,
    passwordHash: string,
    token: string,
    ttlHours: number,
  ) {
    const companyId = await this.companies.firstId(tx);
    const created = await this.registrations.insertPending(tx, {
      email,
      firstName: dto.firstName.trim(),
      lastName: dto.lastName.trim(),
      passwordHash,
      roleId: await roleIdOf(tx, 'VIEWER'),
      companyId,
      confirmationTokenHash: sha256(token),
      ttlHours,
    });
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
  }

  /** Written in place of the new user, so a taken address does the same amount of work. */
  private async recordTakenAddress(tx: EntityManager, owner: UserIdentity) {
    await this.audit.record(tx, {
      action: 'ACCESS',
      entityType: 'User',
      entityId: owner.id,
      userId: null,
      username: owner.email,
      message: 'Registration attempted with the address of an existing account; the owner was notified',
      metadata: { event: 'REGISTRATION_EXISTING_ACCOUNT' },
    });
  }
}
