import { Injectable } from '@nestjs/common';
import { IdentityProvider } from '../entities/identity-provider.entity';
import { OidcFlowService } from '../oidc/oidc-flow.service';
import { IdentityProvidersService } from '../providers/identity-providers.service';
import { SamlFlowService } from '../saml/saml-flow.service';
import { SsoErrors } from '../sso-errors';
import { ClientScope } from './client-scope';
import { RedirectAllowlist } from './redirect-allowlist';
import { SsoLoginService, SsoOutcome } from './sso-login.service';
import { SsoStateService } from './sso-state.service';

/** Starts SSO logins and links, and completes the OAuth2/OIDC callback. */
@Injectable()
export class SsoFlowService {
  constructor(
    private readonly providers: IdentityProvidersService,
    private readonly oidc: OidcFlowService,
    private readonly saml: SamlFlowService,
    private readonly states: SsoStateService,
    private readonly scope: ClientScope,
    private readonly login: SsoLoginService,
    private readonly allowlist: RedirectAllowlist,
  ) {}

  /** `{ authorizationUrl, state }` for a login (or, with `userId`, a link) through the provider. */
  async authorize(providerId: number, redirectUri: string | undefined, userId?: number, bind?: string) {
    const checked = this.allowlist.check(redirectUri);
    const provider = await this.providers.findEnabled(providerId);
    const claims = {
      purpose: userId ? ('link' as const) : ('login' as const),
      userId,
      redirectUri: checked,
      ...(userId ? { bind } : {}),
    };
    const answer =
      provider.providerType === 'SAML'
        ? await this.saml.authorize(provider, claims)
        : await this.oidc.authorize(provider, claims);
    return { data: answer };
  }

  /** The browser entry of the older path GET /sso/login/{provider}: id or name. */
  async loginUrl(key: string, redirectUri: string | undefined): Promise<string> {
    const provider = await this.providers.findByNameOrId(key);
    if (!provider) throw SsoErrors.providerNotFound();
    const { data } = await this.authorize(provider.id, redirectUri);
    return data.authorizationUrl;
  }

  /**
   * GET /auth/sso/callback/{providerId}: verifies the state, enters the client it names (the request
   * itself names none), consumes it, then exchanges the code and signs the user in.
   */
  async callback(
    pathProviderId: number | null,
    query: Record<string, unknown>,
    linkCookie?: string,
  ): Promise<SsoOutcome> {
    const claims = this.states.verify(query.state);
    if (pathProviderId !== null && claims.providerId !== pathProviderId) {
      throw SsoErrors.invalidState('The state belongs to another provider');
    }
    return this.scope.run(claims.client, async () => {
      const record = await this.states.consume(claims);
      let provider: IdentityProvider | null = null;
      try {
        provider = await this.providers.findEnabled(claims.providerId);
        if (provider.providerType === 'SAML')
          throw SsoErrors.invalidState('The state is for a SAML provider');
        const identity = await this.oidc.identity(provider, query, record);
        return await this.login.complete(provider, identity, claims, linkCookie);
      } catch (err) {
        return this.login.fail(provider, err, claims.redirectUri);
      }
    });
  }
}
