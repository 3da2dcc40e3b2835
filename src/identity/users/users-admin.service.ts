import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { refuseApiToken } from '../api-tokens/api-token-limits';
import { AuditWriter, diffChanges } from '../../audit-trail/audit-writer';
import { AuthSettings } from '../auth/auth.settings';
import { AuthStateCache } from '../auth/auth-state.cache';
import { normalizeIdentifier } from '../auth/client-address';
import { PasswordHasher } from '../auth/password-hasher';
import { PasswordResetService } from '../auth/password-reset.service';
import { Principal } from '../../access/principal';
import { SessionService } from '../auth/session.service';
import { AppError } from '../../common/errors/app-error';
import { paged } from '../../common/pagination/pagination';
import { MailService } from '../../mail/mail.service';
import { ClientLinks } from '../../tenancy/client-links';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { CreateUserDto, UpdateUserDto, UserQueryDto } from './dto/user.dto';
import { companyScope } from '../../access/company-rule';
import { ensureMayChange, UserLookup } from './user-lookup';
import { UserQuota } from './user-quota';
import { auditedUser, toUserView } from './user-view';
import { UsersRepository } from './users.repository';

/** List, get, create, update and (soft) delete users of the current client. */
@Injectable()
export class UsersAdminService {
  private readonly logger = new Logger(UsersAdminService.name);

  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly cache: AuthStateCache,
    private readonly quota: UserQuota,
    private readonly hasher: PasswordHasher,
    private readonly resets: PasswordResetService,
    private readonly sessions: SessionService,
    private readonly mail: MailService,
    private readonly links: ClientLinks,
    private readonly settings: AuthSettings,
    private readonly users: UsersRepository,
    private readonly lookup: UserLookup,
  ) {}

  async list(principal: Principal, query: UserQueryDto) {
    const { page, pageSize } = query;
    const [rows, total] = await this.users.page(companyScope(principal), {
      page,
      pageSize,
      blocked: query.blocked === undefined ? undefined : query.blocked === 'true',
      search: query.search || undefined,
    });
    return paged(rows.map(toUserView), total, page, pageSize);
  }

  async get(principal: Principal, id: number) {
    return { data: toUserView(await this.db.production((m) => this.lookup.findUser(m, principal, id))) };
  }

  async create(principal: Principal, dto: CreateUserDto) {
    const email = normalizeIdentifier(dto.email);
    const username = dto.username ? normalizeIdentifier(dto.username) : email;
    const passwordHash = dto.password ? await this.hasher.hash(dto.password) : null;
    const created = await this.db.production((m) =>
      m.transaction(async (tx) => {
        await this.quota.ensureRoom(tx);
        const role = await this.lookup.assignableRole(tx, principal, dto.roleId);
        const companyId = dto.companyId ?? principal.companyId;
        if (companyId !== null) await this.lookup.ensureCompany(tx, companyId);
        await this.quota.discardPending(tx, [email, username], 'an administrator');
        await this.ensureFree(tx, email, username);
        const user = await this.users.insert(tx, {
          email,
          username,
          firstName: dto.firstName?.trim() ?? null,
          lastName: dto.lastName?.trim() ?? null,
          passwordHash,
          roleId: role.id,
          companyId,
          confirmed: true,
          blocked: false,
        });
        user.role = role;
        await this.audit.record(tx, {
          action: 'CREATE',
          entityType: 'User',
          entityId: user.id,
          message: `User ${user.email} created with role ${role.type}`,
          changes: diffChanges(null, auditedUser(user)),
          metadata: { event: 'USER_CREATED' },
        });
        const setupCode = passwordHash ? null : await this.resets.issueCode(tx, user.id);
        return { user, setupCode };
      }),
    );
    if (created.setupCode) await this.sendSetupMail(created.user.email, created.setupCode);
    return { data: toUserView(created.user) };
  }

  async update(principal: Principal, id: number, dto: UpdateUserDto) {
    const user = await this.db.production((m) =>
      m.transaction(async (tx) => {
        const before = await this.lookup.findUser(tx, principal, id, true);
        ensureMayChange(principal, before);
        const email = dto.email !== undefined ? normalizeIdentifier(dto.email) : before.email;
        const username = dto.username !== undefined ? normalizeIdentifier(dto.username) : before.username;
        if (email !== before.email || username !== before.username) {
          refuseApiToken(principal, 'change the e-mail or username of a user');
          await this.ensureFree(tx, email, username, id);
        }
        if (dto.companyId !== undefined) await this.lookup.ensureCompany(tx, dto.companyId);
        const after = { ...before, email, username };
        if (dto.firstName !== undefined) after.firstName = dto.firstName.trim();
        if (dto.lastName !== undefined) after.lastName = dto.lastName.trim();
        if (dto.companyId !== undefined) after.companyId = dto.companyId;
        await this.users.updateProfile(tx, id, after);
        const changes = diffChanges(auditedUser(before), auditedUser(after));
        if (Object.keys(changes).length) {
          await this.audit.record(tx, {
            action: 'UPDATE',
            entityType: 'User',
            entityId: id,
            message: `User ${after.email} updated`,
            changes,
          });
        }
        return after;
      }),
    );
    await this.cache.invalidate(tenantContext.get().client.identifier, id);
    return { data: toUserView(user) };
  }

  /** Soft delete: deleted_at is set, every session ends, the user can no longer log in. */
  async remove(principal: Principal, id: number): Promise<void> {
    await this.db.production((m) =>
      m.transaction(async (tx) => {
        const user = await this.lookup.findUser(tx, principal, id, true);
        ensureMayChange(principal, user, false);
        const deletedAt = new Date();
        await this.users.markDeleted(tx, id, deletedAt);
        await this.sessions.revokeAll(tx, id);
        await this.audit.record(tx, {
          action: 'DELETE',
          entityType: 'User',
          entityId: id,
          message: `User ${user.email} deleted`,
          changes: diffChanges(auditedUser(user), { ...auditedUser(user), deletedAt }),
        });
      }),
    );
    await this.cache.invalidate(tenantContext.get().client.identifier, id);
  }

  private async ensureFree(tx: EntityManager, email: string, username: string | null, exceptId = 0) {
    if (await this.users.identifierTaken(tx, email, username, exceptId)) {
      throw AppError.conflict('A user with this e-mail or username already exists');
    }
  }

  private async sendSetupMail(email: string, code: string) {
    const link = this.links.link(tenantContext.get().client, '/reset-password', { code });
    await this.mail
      .send({
        to: email,
        subject: 'Your account is ready',
        text: `An account was created for you.\n\nSet your password here (valid ${this.settings.PASSWORD_RESET_TTL_MINUTES} minutes): ${link}`,
      })
      .catch((err: Error) => this.logger.warn(`Setup mail to a new user failed: ${err.message}`));
  }
}
