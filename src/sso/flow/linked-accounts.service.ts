import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuditWriter } from '../../audit-trail/audit-writer';
import { Principal } from '../../access/principal';
import { AppError } from '../../common/errors/app-error';
import { modifyReturning } from '../../database/sql';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { IdentityProvidersService } from '../providers/identity-providers.service';
import { SamlServiceProvider } from '../saml/saml-service-provider';
import { SsoErrors } from '../sso-errors';
import { RedirectAllowlist } from './redirect-allowlist';
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
  ) {}

  async list(principal: Principal) {
    const rows = await this.db.production((m) =>
      m.query(
        `SELECT i.provider_id, p.name, p.display_name, p.provider_type, i.subject, i.email, i.linked_at, i.last_login_at
           FROM sso_identities i JOIN identity_providers p ON p.id = i.provider_id
          WHERE i.user_id = $1 ORDER BY i.linked_at`,
        [principal.userId],
      ),
    );
    return {
      data: rows.map((r: Record<string, unknown>) => ({
        providerId: r.provider_id,
        providerName: r.name,
        displayName: r.display_name,
        providerType: r.provider_type,
        subject: r.subject,
        email: r.email,
        linkedAt: r.linked_at,
        lastLoginAt: r.last_login_at,
      })),
    };
  }

  async unlink(principal: Principal, providerId: number) {
    await this.db.production((root) =>
      root.transaction(async (m) => {
        const [row] = await modifyReturning<{ subject: string }>(
          m,
          'DELETE FROM sso_identities WHERE user_id = $1 AND provider_id = $2 RETURNING subject',
          [principal.userId, providerId],
        );
        if (!row) throw new AppError(404, 'NOT_FOUND', 'No linked account for this provider');
        await this.audit.record(m, {
          action: 'UPDATE',
          entityType: 'User',
          entityId: principal.userId,
          message: `SSO account of provider ${providerId} unlinked`,
          metadata: { event: 'ACCOUNT_UNLINKED', providerId, subject: row.subject },
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
    const [link] = await this.db.production((m) =>
      m.query('SELECT subject, session_index FROM sso_identities WHERE user_id = $1 AND provider_id = $2', [
        principal.userId,
        providerId,
      ]),
    );
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
      { nameID: link.subject, sessionIndex: link.session_index },
      relay,
      samlRequestId,
    );
    return { data: { logoutUrl } };
  }
}
