import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditWriter } from '../../audit-trail/audit-writer';
import { AppError } from '../../common/errors/app-error';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { CompaniesRepository, RolesRepository, User, UserQuota } from '../../identity';
import { IdentityProvider } from '../entities/identity-provider.entity';
import { SsoErrors } from '../sso-errors';
import { domainAllowed, ExternalIdentity } from './external-identity';
import { IdentityLink, SsoIdentitiesRepository } from './sso-identities.repository';
import { SsoUsersRepository } from './sso-users.repository';

const linkOf = (provider: IdentityProvider, identity: ExternalIdentity): IdentityLink => ({
  providerId: provider.id,
  subject: identity.subject,
  email: identity.email,
  sessionIndex: identity.sessionIndex ?? null,
});

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
    private readonly identities: SsoIdentitiesRepository,
    private readonly users: SsoUsersRepository,
    private readonly roles: RolesRepository,
    private readonly companies: CompaniesRepository,
  ) {}

  /** The user to sign in, with role; records SSO_LOGIN_SUCCESS (and USER_PROVISIONED / ACCOUNT_LINKED). */
  async signIn(provider: IdentityProvider, identity: ExternalIdentity): Promise<User> {
    return this.db.production((root) =>
      root.transaction(async (m) => {
        const user = await this.resolve(m, provider, identity);
        if (user.blocked) throw SsoErrors.userBlocked();
        await this.identities.recordLogin(m, linkOf(provider, identity));
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
        const owner = await this.identities.ownerOf(m, provider.id, identity.subject);
        if (owner !== null && owner !== userId) throw SsoErrors.alreadyLinked();
        if (owner !== null) return;
        if (await this.identities.userHasLink(m, provider.id, userId)) {
          throw new AppError(
            409,
            'CONFLICT',
            'Your account is already linked to this provider; unlink it first',
          );
        }
        const found = await this.users.findActive(m, userId);
        if (!found) throw AppError.unauthorized();
        if (found.user.blocked) throw SsoErrors.userBlocked();
        await this.insertLink(m, provider, identity, found.user, 'linked by the user');
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
    const linked = await this.users.findLinked(m, provider.id, identity.subject);
    if (linked?.deleted) throw SsoErrors.notProvisioned('The account linked to this identity was deleted');
    if (linked) return linked.user;
    const email = identity.email;
    if (!email) throw SsoErrors.notProvisioned('The identity provider sent no usable e-mail address');
    if (!domainAllowed(email, provider.allowedDomains)) throw SsoErrors.domainNotAllowed();
    const existing = await this.users.findByEmail(m, email);
    if (existing && !existing.confirmed) {
      // A pending self-registration is no account: just-in-time creation replaces it.
      if (!provider.jitEnabled) {
        throw SsoErrors.notProvisioned('No account exists for this identity and JIT provisioning is off');
      }
      await this.quota.discardPending(m, [email], `SSO provider "${provider.name}"`);
    } else if (existing) {
      if (!provider.autoLinkByEmail || !identity.emailVerified) throw SsoErrors.accountNotLinked();
      const user = existing.user;
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
    const roleId = await this.jitRoleId(m, provider);
    if (roleId === null)
      throw SsoErrors.misconfigured('The JIT default role of this provider no longer exists');
    const companyId = provider.companyId ? provider.companyId : await this.companies.firstId(m);
    const user = await this.users.insert(m, {
      email,
      firstName: identity.firstName,
      lastName: identity.lastName,
      phoneNumber: identity.phoneNumber?.slice(0, 50) ?? null,
      profileId: provider.jitDefaultProfileId ?? null,
      roleId,
      companyId,
    });
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
    await this.identities.insert(m, linkOf(provider, identity), user.id);
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

  /** The provider's JIT default role (never SUPER_ADMIN), or VIEWER; null when it no longer exists. */
  private async jitRoleId(m: EntityManager, provider: IdentityProvider): Promise<number | null> {
    if (!provider.jitDefaultRoleId) return this.roles.idOfType(m, 'VIEWER');
    const role = await this.roles.findById(m, provider.jitDefaultRoleId);
    return role && role.type !== 'SUPER_ADMIN' ? role.id : null;
  }

  /** The rule of every other creation path: pending registrations hold no seat. */
  private async checkUserLimit(m: EntityManager) {
    await this.quota.ensureRoom(m, () => SsoErrors.userLimit());
  }
}
