import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditWriter } from '../../audit-trail/audit-writer';
import { AppError } from '../../common/errors/app-error';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { Role } from '../../identity';
import { User } from '../../identity';
import { IdentityProvider } from '../entities/identity-provider.entity';
import { SsoErrors } from '../sso-errors';
import { domainAllowed, ExternalIdentity } from './external-identity';
import { UserQuota } from '../../identity';

interface UserRow {
  id: number;
  email: string;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  company_id: number | null;
  blocked: boolean;
  confirmed: boolean;
  two_factor_enabled: boolean;
  token_version: number;
  role_id: number;
  role_name: string;
  role_type: Role['type'];
}

const USER_SELECT = `SELECT u.id, u.email, u.username, u.first_name, u.last_name, u.company_id, u.blocked,
       u.confirmed, u.two_factor_enabled, u.token_version, r.id AS role_id, r.name AS role_name, r.type AS role_type
  FROM public.users u JOIN public.roles r ON r.id = u.role_id`;

function toUser(row: UserRow): User {
  const role = Object.assign(new Role(), { id: row.role_id, name: row.role_name, type: row.role_type });
  return Object.assign(new User(), {
    id: row.id,
    email: row.email,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    companyId: row.company_id,
    blocked: row.blocked,
    twoFactorEnabled: row.two_factor_enabled,
    tokenVersion: row.token_version,
    roleId: row.role_id,
    role,
  });
}

const providerMeta = (p: IdentityProvider) => ({
  providerId: p.id,
  providerName: p.name,
  providerType: p.providerType,
});

/**
 * Finds (or provisions, or links) the user an external identity signs in as. A linked identity is
 * matched by (provider, subject) only; an e-mail match links only with autoLinkByEmail and a
 * verified e-mail; JIT creates users only when enabled and the e-mail is present and allowed.
 */
@Injectable()
export class SsoAccountsService {
  private readonly logger = new Logger(SsoAccountsService.name);

  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly quota: UserQuota,
  ) {}

  /** The user to sign in, with role; records SSO_LOGIN_SUCCESS (and USER_PROVISIONED / ACCOUNT_LINKED). */
  async signIn(provider: IdentityProvider, identity: ExternalIdentity): Promise<User> {
    return this.db.production((root) =>
      root.transaction(async (m) => {
        const user = await this.resolve(m, provider, identity);
        if (user.blocked) throw SsoErrors.userBlocked();
        await m.query(
          `UPDATE sso_identities SET last_login_at = now(), email = coalesce($3, email), session_index = $4
            WHERE provider_id = $1 AND subject = $2`,
          [provider.id, identity.subject, identity.email, identity.sessionIndex ?? null],
        );
        await this.audit.record(m, {
          action: 'LOGIN',
          entityType: 'User',
          entityId: user.id,
          userId: user.id,
          username: user.email,
          message: `SSO login through "${provider.name}"`,
          metadata: { event: 'SSO_LOGIN_SUCCESS', success: true, ...providerMeta(provider) },
        });
        return user;
      }),
    );
  }

  /** Links the identity to `userId` (the link flow); 409 when it belongs to someone else. */
  async link(provider: IdentityProvider, identity: ExternalIdentity, userId: number): Promise<void> {
    await this.db.production((root) =>
      root.transaction(async (m) => {
        const [owner] = await m.query(
          'SELECT user_id FROM sso_identities WHERE provider_id = $1 AND subject = $2',
          [provider.id, identity.subject],
        );
        if (owner && owner.user_id !== userId) throw SsoErrors.alreadyLinked();
        if (owner) return;
        const [mine] = await m.query(
          'SELECT subject FROM sso_identities WHERE provider_id = $1 AND user_id = $2',
          [provider.id, userId],
        );
        if (mine) {
          throw new AppError(
            409,
            'CONFLICT',
            'Your account is already linked to this provider; unlink it first',
          );
        }
        const [row] = await m.query(`${USER_SELECT} WHERE u.id = $1 AND u.deleted_at IS NULL`, [userId]);
        if (!row) throw AppError.unauthorized();
        if (row.blocked) throw SsoErrors.userBlocked();
        await this.insertLink(m, provider, identity, toUser(row), 'linked by the user');
      }),
    );
  }

  /** Records SSO_LOGIN_FAILED outside the failed transaction. Never throws. */
  async recordFailure(provider: IdentityProvider | null, code: string, message: string, who?: string | null) {
    try {
      await this.db.production((m) =>
        this.audit.record(m, {
          action: 'LOGIN',
          entityType: 'User',
          userId: null,
          username: who ?? null,
          message: `SSO login failed: ${message}`.slice(0, 1000),
          metadata: {
            event: 'SSO_LOGIN_FAILED',
            success: false,
            reason: code,
            ...(provider ? providerMeta(provider) : {}),
          },
        }),
      );
    } catch (err) {
      this.logger.warn(`Could not record SSO_LOGIN_FAILED: ${(err as Error).message}`);
    }
  }

  private async resolve(m: EntityManager, provider: IdentityProvider, identity: ExternalIdentity) {
    const [linked] = await m.query(
      `${USER_SELECT.replace('SELECT', 'SELECT u.deleted_at,')} JOIN sso_identities i ON i.user_id = u.id
        WHERE i.provider_id = $1 AND i.subject = $2`,
      [provider.id, identity.subject],
    );
    if (linked?.deleted_at) throw SsoErrors.notProvisioned('The account linked to this identity was deleted');
    if (linked) return toUser(linked);
    const email = identity.email;
    if (!email) throw SsoErrors.notProvisioned('The identity provider sent no usable e-mail address');
    if (!domainAllowed(email, provider.allowedDomains)) throw SsoErrors.domainNotAllowed();
    const [existing] = await m.query(`${USER_SELECT} WHERE lower(u.email) = $1 AND u.deleted_at IS NULL`, [
      email,
    ]);
    if (existing && !existing.confirmed) {
      // A pending self-registration is no account: just-in-time creation replaces it.
      if (!provider.jitEnabled) {
        throw SsoErrors.notProvisioned('No account exists for this identity and JIT provisioning is off');
      }
      await this.quota.discardPending(m, [email], `SSO provider "${provider.name}"`);
    } else if (existing) {
      if (!provider.autoLinkByEmail || !identity.emailVerified) throw SsoErrors.accountNotLinked();
      const user = toUser(existing);
      await this.insertLink(m, provider, identity, user, 'linked by verified e-mail');
      return user;
    }
    if (!provider.jitEnabled) {
      throw SsoErrors.notProvisioned('No account exists for this identity and JIT provisioning is off');
    }
    return this.provision(m, provider, identity, email);
  }

  private async provision(
    m: EntityManager,
    provider: IdentityProvider,
    identity: ExternalIdentity,
    email: string,
  ) {
    await this.checkUserLimit(m);
    const [role] = provider.jitDefaultRoleId
      ? await m.query(`SELECT id FROM public.roles WHERE id = $1 AND type <> 'SUPER_ADMIN'`, [
          provider.jitDefaultRoleId,
        ])
      : await m.query(`SELECT id FROM public.roles WHERE type = 'VIEWER'`);
    if (!role) throw SsoErrors.misconfigured('The JIT default role of this provider no longer exists');
    const [company] = provider.companyId
      ? [{ id: provider.companyId }]
      : await m.query('SELECT id FROM public.companies ORDER BY id LIMIT 1');
    const [created] = await m.query(
      `INSERT INTO public.users (email, first_name, last_name, phone_number, profile_id, role_id, company_id, confirmed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, true) RETURNING id`,
      [
        email,
        identity.firstName,
        identity.lastName,
        identity.phoneNumber?.slice(0, 50) ?? null,
        provider.jitDefaultProfileId ?? null,
        role.id,
        company?.id ?? null,
      ],
    );
    const [row] = await m.query(`${USER_SELECT} WHERE u.id = $1`, [created.id]);
    const user = toUser(row);
    await this.audit.record(m, {
      action: 'CREATE',
      entityType: 'User',
      entityId: user.id,
      userId: user.id,
      username: email,
      message: `User ${email} provisioned by SSO through "${provider.name}"`,
      changes: {
        email: { old: null, new: email },
        roleId: { old: null, new: user.roleId },
        companyId: { old: null, new: user.companyId },
        profileId: { old: null, new: provider.jitDefaultProfileId ?? null },
      },
      metadata: {
        event: 'USER_PROVISIONED',
        ...providerMeta(provider),
        jitDefaultProfileId: provider.jitDefaultProfileId,
      },
    });
    await this.insertLink(m, provider, identity, user, 'created by JIT provisioning');
    return user;
  }

  private async insertLink(
    m: EntityManager,
    provider: IdentityProvider,
    identity: ExternalIdentity,
    user: User,
    how: string,
  ) {
    await m.query(
      `INSERT INTO sso_identities (provider_id, user_id, subject, email, session_index)
       VALUES ($1, $2, $3, $4, $5)`,
      [provider.id, user.id, identity.subject, identity.email, identity.sessionIndex ?? null],
    );
    await this.audit.record(m, {
      action: 'UPDATE',
      entityType: 'User',
      entityId: user.id,
      userId: user.id,
      username: user.email,
      message: `SSO account of "${provider.name}" linked (${how})`,
      metadata: { event: 'ACCOUNT_LINKED', ...providerMeta(provider), subject: identity.subject },
    });
  }

  /** The rule of every other creation path: pending registrations hold no seat. */
  private async checkUserLimit(m: EntityManager) {
    await this.quota.ensureRoom(m, () => SsoErrors.userLimit());
  }
}
