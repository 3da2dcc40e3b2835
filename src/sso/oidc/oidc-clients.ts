import { Injectable } from '@nestjs/common';
import { BaseClient, custom, Issuer, IssuerMetadata } from 'openid-client';
import { SecretBox } from '../../common/crypto/secret-box';
import { tenantContext } from '../../tenancy/tenant-context';
import { IdentityProvider } from '../entities/identity-provider.entity';
import { IdpHttp } from '../outbound/idp-http';
import { SsoSettings } from '../sso.settings';
import { SsoErrors } from '../sso-errors';
import { SsoUrls } from '../sso-urls';

const CACHE_MS = 10 * 60 * 1000;

export const discoveryUrlOf = (p: { discoveryUri?: string | null; issuerUrl?: string | null }) =>
  p.discoveryUri ??
  (p.issuerUrl ? `${p.issuerUrl.replace(/\/+$/, '')}/.well-known/openid-configuration` : null);

const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** openid-client issuers and clients for our providers, every outbound call through IdpHttp. */
@Injectable()
export class OidcClients {
  private readonly issuers = new Map<string, { issuer: Promise<Issuer<BaseClient>>; expires: number }>();

  constructor(
    private readonly http: IdpHttp,
    private readonly secrets: SecretBox,
    private readonly settings: SsoSettings,
    private readonly urls: SsoUrls,
  ) {}

  /** Fetches and checks a discovery document; `expectedIssuer` must match its `issuer` when given. */
  async discover(discoveryUrl: string, expectedIssuer?: string | null): Promise<Issuer<BaseClient>> {
    const doc = await this.http.getJson(discoveryUrl);
    for (const field of ['issuer', 'authorization_endpoint', 'token_endpoint']) {
      if (typeof doc[field] !== 'string') {
        throw SsoErrors.unreachable(`The discovery document has no ${field}`);
      }
    }
    if (expectedIssuer && !sameIssuer(String(doc.issuer), expectedIssuer)) {
      throw SsoErrors.misconfigured(`Discovered issuer ${String(doc.issuer)} differs from ${expectedIssuer}`);
    }
    return this.issuerFrom(doc as IssuerMetadata);
  }

  async client(provider: IdentityProvider): Promise<BaseClient> {
    const issuer = await this.issuer(provider);
    if (!provider.clientId) throw SsoErrors.misconfigured('The provider has no clientId');
    const secret = provider.clientSecret ? this.secrets.decrypt(provider.clientSecret) : undefined;
    const client = new issuer.Client({
      client_id: provider.clientId,
      client_secret: secret,
      redirect_uris: [this.urls.callback(provider.id)],
      response_types: ['code'],
      token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
    });
    client[custom.http_options] = this.http.openidHttpOptions;
    client[custom.clock_tolerance] = this.settings.SSO_CLOCK_SKEW_SECONDS;
    return client;
  }

  issuer(provider: IdentityProvider): Promise<Issuer<BaseClient>> {
    const key = `${tenantContext.get().client.identifier}:${provider.id}:${provider.updatedAt?.getTime()}`;
    const hit = this.issuers.get(key);
    if (hit && hit.expires > Date.now()) return hit.issuer;
    const issuer = this.load(provider);
    this.issuers.set(key, { issuer, expires: Date.now() + CACHE_MS });
    issuer.catch(() => this.issuers.delete(key));
    if (this.issuers.size > 1000) this.issuers.delete(this.issuers.keys().next().value!);
    return issuer;
  }

  private async load(provider: IdentityProvider): Promise<Issuer<BaseClient>> {
    const discovery = discoveryUrlOf(provider);
    if (discovery) return this.discover(discovery, provider.issuerUrl);
    if (provider.providerType === 'OIDC') {
      throw SsoErrors.misconfigured('An OIDC provider needs discoveryUri or issuerUrl');
    }
    if (!provider.authorizationUri || !provider.tokenUri) {
      throw SsoErrors.misconfigured('An OAuth2 provider needs authorizationUri and tokenUri');
    }
    return this.issuerFrom({
      issuer: new URL(provider.authorizationUri).origin,
      authorization_endpoint: provider.authorizationUri,
      token_endpoint: provider.tokenUri,
      userinfo_endpoint: provider.userInfoUri ?? undefined,
    });
  }

  private issuerFrom(metadata: IssuerMetadata): Issuer<BaseClient> {
    for (const field of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri']) {
      const value = metadata[field];
      if (typeof value === 'string') this.http.checkUrl(value);
    }
    const issuer = new Issuer(metadata);
    issuer[custom.http_options] = this.http.openidHttpOptions;
    return issuer;
  }
}
