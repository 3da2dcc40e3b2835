import { Injectable, Logger } from '@nestjs/common';
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
import { User } from './entities/user.entity';
import { assignableRole, companyScope, ensureCompany, ensureMayChange, findUser } from './user-lookup';
import { UserQuota } from './user-quota';
import { auditedUser, toUserView } from './user-view';

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
  ) {}

  async list(principal: Principal, query: UserQueryDto) {
    const { page, pageSize } = query;
    const qb = (await this.db.dataSource())
      .getRepository(User)
      .createQueryBuilder('u')
      .innerJoinAndSelect('u.role', 'role')
      .where('u.deleted_at IS NULL')
      .orderBy('u.id')
      .skip((page - 1) * pageSize)
      .take(pageSize);
    const scope = companyScope(principal);
    if (scope !== null) qb.andWhere('u.company_id = :scope', { scope });
    if (query.blocked !== undefined)
      qb.andWhere('u.blocked = :blocked', { blocked: query.blocked === 'true' });
    if (query.search) {
      const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(
        '(u.email ILIKE :like OR u.username ILIKE :like OR u.first_name ILIKE :like OR u.last_name ILIKE :like)',
        { like },
      );
    }
    const [rows, total] = await qb.getManyAndCount();
    return paged(rows.map(toUserView), total, page, pageSize);
  }

  async get(principal: Principal, id: number) {
    return { data: toUserView(await this.db.production((m) => findUser(m, principal, id))) };
  }

  async create(principal: Principal, dto: CreateUserDto) {
    const email = normalizeIdentifier(dto.email);
    const username = dto.username ? normalizeIdentifier(dto.username) : email;
    const passwordHash = dto.password ? await this.hasher.hash(dto.password) : null;
    const created = await this.db.production((m) =>
      m.transaction(async (tx) => {
        await this.quota.ensureRoom(tx);
        const role = await assignableRole(tx, principal, dto.roleId);
        const companyId = dto.companyId ?? principal.companyId;
        if (companyId !== null) await ensureCompany(tx, companyId);
        await this.quota.discardPending(tx, [email, username], 'an administrator');
        await this.ensureFree(tx, email, username);
        const repo = tx.getRepository(User);
        const user = await repo.save(
          repo.create({
            email,
            username,
            firstName: dto.firstName?.trim() ?? null,
            lastName: dto.lastName?.trim() ?? null,
            passwordHash,
            roleId: role.id,
            companyId,
            confirmed: true,
            blocked: false,
          }),
        );
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
        const before = await findUser(tx, principal, id, true);
        ensureMayChange(principal, before);
        const email = dto.email !== undefined ? normalizeIdentifier(dto.email) : before.email;
        const username = dto.username !== undefined ? normalizeIdentifier(dto.username) : before.username;
        if (email !== before.email || username !== before.username) {
          refuseApiToken(principal, 'change the e-mail or username of a user');
          await this.ensureFree(tx, email, username, id);
        }
        if (dto.companyId !== undefined) await ensureCompany(tx, dto.companyId);
        const after = { ...before, email, username };
        if (dto.firstName !== undefined) after.firstName = dto.firstName.trim();
        if (dto.lastName !== undefined) after.lastName = dto.lastName.trim();
        if (dto.companyId !== undefined) after.companyId = dto.companyId;
        await tx.getRepository(User).update(id, {
          email: after.email,
          username: after.username,
          firstName: after.firstName,
          lastName: after.lastName,
          companyId: after.companyId,
        });
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
        const user = await findUser(tx, principal, id, true);
        ensureMayChange(principal, user, false);
        const deletedAt = new Date();
        await tx.query('UPDATE public.users SET deleted_at = $2, updated_at = now() WHERE id = $1', [
          id,
          deletedAt,
        ]);
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

  private async ensureFree(
    tx: import('typeorm').EntityManager,
    email: string,
    username: string | null,
    exceptId = 0,
  ) {
    const [taken] = await tx.query(
      `SELECT 1 FROM public.users
        WHERE id <> $3 AND (lower(email) IN ($1, $2) OR lower(username) IN ($1, $2))`,
      [email, username ?? email, exceptId],
    );
    if (taken) throw AppError.conflict('A user with this e-mail or username already exists');
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
