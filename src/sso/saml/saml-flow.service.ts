import { Injectable } from '@nestjs/common';
import { Profile } from '@node-saml/node-saml';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../common/errors/app-error';
import { RedisService } from '../../redis/redis.service';
import { tenantContext } from '../../tenancy/tenant-context';
import { IdentityProvider } from '../entities/identity-provider.entity';
import { ClientScope } from '../flow/client-scope';
import { extractIdentity } from '../flow/external-identity';
import { RedirectAllowlist } from '../flow/redirect-allowlist';
import { SsoLoginService, SsoOutcome } from '../flow/sso-login.service';
import { SsoStateService, StateClaims } from '../flow/sso-state.service';
import { IdentityProvidersService } from '../providers/identity-providers.service';
import { SsoSettings } from '../sso.settings';
import { SsoErrors } from '../sso-errors';
import { SamlServiceProvider } from './saml-service-provider';
import { SamlResponseFacts, screenRedirectMessage, screenSamlResponse } from './saml-xml-guard';

const STATE_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_REPLAY_WINDOW_S = 24 * 3600;
const CLIENT_SEGMENT = /^[a-z0-9][a-z0-9_-]{0,39}$/i;

/** SP-initiated and IdP-initiated SAML 2.0 Web SSO (HTTP-Redirect AuthnRequest, HTTP-POST response). */
@Injectable()
export class SamlFlowService {
  constructor(
    private readonly sp: SamlServiceProvider,
    private readonly states: SsoStateService,
    private readonly providers: IdentityProvidersService,
    private readonly scope: ClientScope,
    private readonly login: SsoLoginService,
    private readonly allowlist: RedirectAllowlist,
    private readonly redis: RedisService,
    private readonly settings: SsoSettings,
  ) {}

  async authorize(
    provider: IdentityProvider,
    claims: Omit<StateClaims, 'jti' | 'exp' | 'client' | 'providerId'>,
  ) {
    const samlRequestId = `_${randomBytes(20).toString('hex')}`;
    const state = await this.states.create(
      { ...claims, client: tenantContext.get().client.identifier, providerId: provider.id },
      { samlRequestId },
    );
    const authorizationUrl = await this.sp.authorizeUrl(provider, state, samlRequestId);
    return { authorizationUrl, state };
  }

  /**
   * The ACS: screens the XML, finds provider and client (RelayState, else Issuer), validates, signs
   * in. A request that names a client (host, `?client=` or header) is that client's ACS.
   */
  async acs(
    body: { SAMLResponse?: unknown; RelayState?: unknown },
    linkCookie?: string,
  ): Promise<SsoOutcome> {
    const named = tenantContext.get().client;
    if (!named.isMaster) return this.acsOf(named.identifier, body, linkCookie);
    const facts = screenSamlResponse(body.SAMLResponse);
    const relay = typeof body.RelayState === 'string' && body.RelayState ? body.RelayState : undefined;
    if (relay && STATE_SHAPE.test(relay)) {
      const claims = this.states.verify(relay);
      return this.scope.run(claims.client, () => this.spInitiated(facts, claims, linkCookie));
    }
    const redirectUri = this.allowlist.check(relay);
    return this.idpInitiated(facts, redirectUri);
  }

  /**
   * The ACS of one client (`/auth/sso/saml/acs?client={client}`, or the alias path
   * `/auth/sso/saml/acs/{client}`): IdP-initiated responses are looked up
   * among that client's providers; a RelayState state must name the same client.
   */
  async acsOf(
    client: string,
    body: { SAMLResponse?: unknown; RelayState?: unknown },
    linkCookie?: string,
  ): Promise<SsoOutcome> {
    const facts = screenSamlResponse(body.SAMLResponse);
    const relay = typeof body.RelayState === 'string' && body.RelayState ? body.RelayState : undefined;
    this.clientOf(client);
    if (relay && STATE_SHAPE.test(relay)) {
      const claims = this.states.verify(relay);
      if (claims.client !== client) throw SsoErrors.invalidState('The state belongs to another client');
      return this.scope.run(client, () => this.spInitiated(facts, claims, linkCookie));
    }
    const redirectUri = this.allowlist.check(relay);
    return this.scope.run(client, () => this.idpInitiated(facts, redirectUri));
  }

  /** The active client a client path segment names; else 404 CLIENT_NOT_FOUND. */
  clientOf(identifier: string) {
    if (!CLIENT_SEGMENT.test(identifier)) throw AppError.clientNotFound();
    return this.scope.resolve(identifier);
  }

  /** Single-logout return: a signed LogoutResponse answering the LogoutRequest of our state. */
  async sloReturn(query: Record<string, unknown>, rawQuery: string): Promise<SsoOutcome> {
    if (query.SAMLRequest !== undefined) {
      throw new AppError(400, 'SSO_SAML_UNSUPPORTED', 'IdP-initiated single logout is not supported');
    }
    const fields: Record<string, string> = {};
    for (const key of ['SAMLResponse', 'RelayState', 'SigAlg', 'Signature']) {
      if (typeof query[key] === 'string') fields[key] = query[key];
    }
    if (!fields.SAMLResponse) throw SsoErrors.samlMalformed('SAMLResponse is required');
    if (!fields.Signature || !fields.SigAlg) throw SsoErrors.samlInvalid('The LogoutResponse must be signed');
    const xml = screenRedirectMessage(fields.SAMLResponse);
    const claims = this.states.verify(fields.RelayState);
    if (claims.purpose !== 'logout') throw SsoErrors.invalidState('The state is not for a logout');
    return this.scope.run(claims.client, async () => {
      const record = await this.states.consume(claims);
      const provider = await this.providers.find(claims.providerId);
      if (/\bInResponseTo="([^"]+)"/.exec(xml)?.[1] !== record.samlRequestId) {
        throw SsoErrors.samlInvalid('InResponseTo does not match our LogoutRequest');
      }
      if (!(await this.sp.validateLogoutResponse(provider, fields, rawQuery))) {
        throw SsoErrors.samlInvalid('Not a LogoutResponse');
      }
      if (claims.redirectUri) {
        const url = new URL(claims.redirectUri);
        url.searchParams.set('loggedOut', 'true');
        return { kind: 'redirect', url: url.toString() };
      }
      return { kind: 'json', body: { data: { loggedOut: true } } };
    });
  }

  private async spInitiated(
    facts: SamlResponseFacts,
    claims: StateClaims,
    linkCookie?: string,
  ): Promise<SsoOutcome> {
    const record = await this.states.consume(claims);
    let provider: IdentityProvider | null = null;
    try {
      provider = await this.providers.findEnabled(claims.providerId);
      if (provider.providerType !== 'SAML')
        throw SsoErrors.invalidState('The state is not for a SAML provider');
      if (!facts.inResponseTo || facts.inResponseTo !== record.samlRequestId) {
        throw SsoErrors.samlInvalid('InResponseTo does not match the request of this login');
      }
      const profile = await this.sp.validate(provider, facts, true);
      return await this.finish(provider, facts, profile, claims, linkCookie);
    } catch (err) {
      return this.login.fail(provider, err, claims.redirectUri, facts.issuer);
    }
  }

  private async idpInitiated(facts: SamlResponseFacts, redirectUri: string | undefined): Promise<SsoOutcome> {
    let provider: IdentityProvider | null = null;
    try {
      provider = facts.issuer ? await this.providers.findSamlByEntityId(facts.issuer) : null;
      if (!provider) throw SsoErrors.samlInvalid('No enabled SAML provider of this client has that Issuer');
      const profile = await this.sp.validate(provider, facts, false);
      return await this.finish(provider, facts, profile, { purpose: 'login', redirectUri });
    } catch (err) {
      return this.login.fail(provider, err, redirectUri, facts.issuer);
    }
  }

  private async finish(
    provider: IdentityProvider,
    facts: SamlResponseFacts,
    profile: Profile,
    claims: Pick<StateClaims, 'purpose' | 'userId' | 'redirectUri' | 'bind'>,
    linkCookie?: string,
  ) {
    await this.rememberOnce(provider, facts);
    if (!profile.nameID) throw SsoErrors.samlInvalid('The assertion has no NameID');
    const attributes = (profile.attributes ?? profile) as Record<string, unknown>;
    const identity = extractIdentity('SAML', profile.nameID, attributes, provider.attributeMapping, {
      value: profile.nameID,
      format: profile.nameIDFormat,
    });
    identity.sessionIndex = profile.sessionIndex ?? null;
    return this.login.complete(provider, identity, claims, linkCookie);
  }

  /**
   * Replay protection: each Response and Assertion id of an IdP is accepted once, by whichever
   * client receives it first, until the assertion expires. Not keyed by client: clients trusting
   * the same IdP would otherwise each accept the same assertion once.
   */
  private async rememberOnce(provider: IdentityProvider, facts: SamlResponseFacts) {
    const skew = this.settings.SSO_CLOCK_SKEW_SECONDS;
    const until = facts.notOnOrAfter?.getTime() ?? Date.now() + this.settings.SSO_STATE_TTL_SECONDS * 1000;
    const ttl = Math.min(MAX_REPLAY_WINDOW_S, Math.max(60, Math.ceil((until - Date.now()) / 1000) + skew));
    // The provider's entity id is the Issuer node-saml has just checked the response against.
    const issuer = encodeURIComponent(provider.entityId ?? facts.issuer ?? '');
    for (const id of [`r:${facts.responseId}`, `a:${facts.assertionId}`]) {
      const key = this.redis.key('sso', 'saml-seen', issuer, id);
      const fresh = await this.redis.client.set(key, '1', 'EX', ttl, 'NX');
      if (!fresh) throw SsoErrors.samlReplay();
    }
  }
}
