import { Injectable } from '@nestjs/common';
import { BaseClient, errors, generators, TokenSet } from 'openid-client';
import { AppError } from '../../common/errors/app-error';
import { tenantContext } from '../../tenancy/tenant-context';
import { IdentityProvider } from '../entities/identity-provider.entity';
import { extractIdentity, ExternalIdentity } from '../flow/external-identity';
import { SsoStateService, StateClaims, StateRecord } from '../flow/sso-state.service';
import { SsoErrors } from '../sso-errors';
import { SsoUrls } from '../sso-urls';
import { OidcClients } from './oidc-clients';

const CALLBACK_PARAMS = ['code', 'state', 'iss', 'error', 'error_description', 'session_state'];

/** Authorization-code flow with state, nonce and PKCE (S256) for OIDC and plain OAuth 2.0. */
@Injectable()
export class OidcFlowService {
  constructor(
    private readonly clients: OidcClients,
    private readonly states: SsoStateService,
    private readonly urls: SsoUrls,
  ) {}

  async authorize(
    provider: IdentityProvider,
    claims: Omit<StateClaims, 'jti' | 'exp' | 'client' | 'providerId'>,
  ) {
    const client = await this.clients.client(provider);
    const codeVerifier = generators.codeVerifier();
    const nonce = provider.providerType === 'OIDC' ? generators.nonce() : undefined;
    const state = await this.states.create(
      { ...claims, client: tenantContext.get().client.identifier, providerId: provider.id },
      { codeVerifier, nonce },
    );
    let scope = provider.scopes ?? (provider.providerType === 'OIDC' ? 'openid profile email' : '');
    if (provider.providerType === 'OIDC' && !scope.split(' ').includes('openid'))
      scope = `openid ${scope}`.trim();
    const authorizationUrl = client.authorizationUrl({
      ...(scope ? { scope } : {}),
      state,
      nonce,
      code_challenge: generators.codeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      redirect_uri: this.urls.callback(provider.id),
    });
    return { authorizationUrl, state };
  }

  /** Exchanges the code and returns the verified identity (ID token checked for OIDC). */
  async identity(
    provider: IdentityProvider,
    query: Record<string, unknown>,
    record: StateRecord,
  ): Promise<ExternalIdentity> {
    const params: Record<string, string> = {};
    for (const key of CALLBACK_PARAMS) if (typeof query[key] === 'string') params[key] = query[key];
    if (params.error) {
      throw SsoErrors.loginFailed(
        `The identity provider answered ${params.error}${params.error_description ? `: ${params.error_description}` : ''}`,
      );
    }
    if (!params.code) throw AppError.badRequest('The callback has no authorization code', 'SSO_LOGIN_FAILED');
    const client = await this.clients.client(provider);
    const redirectUri = this.urls.callback(provider.id);
    const checks = { state: params.state, code_verifier: record.codeVerifier };
    try {
      if (provider.providerType === 'OIDC') {
        const tokens = await client.callback(redirectUri, params, { ...checks, nonce: record.nonce });
        let claims: Record<string, unknown> = { ...tokens.claims() };
        if (!claims.email && client.issuer.metadata.userinfo_endpoint && tokens.access_token) {
          const info = await client.userinfo(tokens);
          claims = { ...info, ...claims };
        }
        return extractIdentity('OIDC', String(claims.sub), claims, provider.attributeMapping);
      }
      // Plain OAuth 2.0: the state was verified (HMAC, single use) before we got here; an ID token some
      // providers add is not used, the identity comes from the userinfo endpoint.
      const tokens = await client.grant({
        grant_type: 'authorization_code',
        code: params.code,
        redirect_uri: redirectUri,
        code_verifier: record.codeVerifier,
      });
      return await this.oauthIdentity(client, provider, tokens);
    } catch (err) {
      throw this.translate(err);
    }
  }

  private async oauthIdentity(client: BaseClient, provider: IdentityProvider, tokens: TokenSet) {
    if (!tokens.access_token) throw SsoErrors.loginFailed('The token response has no access token');
    const info = (await client.userinfo(tokens.access_token)) as Record<string, unknown>;
    const raw = info.sub ?? info.id;
    const subject = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
    if (!subject) {
      throw SsoErrors.loginFailed('The userinfo response identifies no subject');
    }
    return extractIdentity('OAUTH2', subject, info, provider.attributeMapping);
  }

  private translate(err: unknown): Error {
    if (err instanceof AppError) return err;
    if (err instanceof errors.OPError) {
      return SsoErrors.loginFailed(`The identity provider refused the code: ${err.message}`);
    }
    if (err instanceof errors.RPError)
      return SsoErrors.loginFailed(`Token validation failed: ${err.message}`);
    const e = err as NodeJS.ErrnoException;
    if (e?.code === 'EBLOCKEDTARGET' || e?.code === 'ECONNREFUSED' || e?.code === 'ENOTFOUND') {
      return SsoErrors.unreachable(`The identity provider could not be reached: ${e.message}`);
    }
    return SsoErrors.loginFailed(`SSO login failed: ${(err as Error)?.message ?? 'unknown error'}`);
  }
}
