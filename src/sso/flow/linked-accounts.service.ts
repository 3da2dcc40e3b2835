import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuditWriter } from '../../audit-trail/audit-writer';
import { Principal } from '../../access/principal';
import { AppError } from '../../common/errors/app-error';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { IdentityProvidersService } from '../providers/identity-providers.service';
import { SamlServiceProvider } from '../saml/saml-service-provider';
import { SsoErrors } from '../sso-errors';
import { RedirectAllowlist } from './redirect-allowlist';
import { SsoIdentitiesRepository } from './sso-identities.repository';
import { SsoStateService } from './sso-state.service';

/** A user's own linked SSO accounts. */
@Injectable()
export class LinkedAccountsService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly providers: IdentityProvidersService,
    private readonly saml: SamlServiceProvider,
    private readonly states: SsoStateService,
    private readonly allowlist: RedirectAllowlist,
    private readonly identities: SsoIdentitiesRepository,
  ) {}

  async list(principal: Principal) {
    const data = await this.db.production((m) => this.identities.listOfUser(m, principal.userId));
    return { data };
  }

  async unlink(principal: Principal, providerId: number) {
    await this.db.production((root) =>
      root.transaction(async (m) => {
        const subject = await this.identities.unlink(m, principal.userId, providerId);
        if (subject === null) throw new AppError(404, 'NOT_FOUND', 'No linked account for this provider');
        await this.audit.record(m, {
          action: 'UPDATE',
          entityType: 'User',
          entityId: principal.userId,
          message: `SSO account of provider ${providerId} unlinked`,
          metadata: { event: 'ACCOUNT_UNLINKED', providerId, subject },
        });
      }),
    );
  }

  /** SAML single logout: the IdP URL that ends the user's IdP session (when the provider has sloUrl). */
  async samlLogoutUrl(principal: Principal, providerId: number, redirectUri?: string) {
    const provider = await this.providers.findEnabled(providerId);
    if (provider.providerType !== 'SAML' || !provider.sloUrl) {
      throw SsoErrors.misconfigured('The provider has no SAML single logout (sloUrl)');
    }
    const link = await this.db.production((m) => this.identities.sessionOf(m, principal.userId, providerId));
    if (!link) throw new AppError(404, 'NOT_FOUND', 'No linked account for this provider');
    const samlRequestId = `_${randomBytes(20).toString('hex')}`;
    const relay = await this.states.create(
      {
        client: tenantContext.get().client.identifier,
        providerId,
        purpose: 'logout',
        userId: principal.userId,
        redirectUri: this.allowlist.check(redirectUri),
      },
      { samlRequestId },
    );
    const logoutUrl = await this.saml.logoutUrl(
      provider,
      { nameID: link.subject, sessionIndex: link.sessionIndex },
      relay,
      samlRequestId,
    );
    return { data: { logoutUrl } };
  }
}
