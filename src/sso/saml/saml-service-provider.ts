import { tenantContext } from '../../tenancy/tenant-context';
import { Injectable } from '@nestjs/common';
import { Profile, SAML, SamlConfig, ValidateInResponseTo } from '@node-saml/node-saml';
import { RedisService } from '../../redis/redis.service';
import { IdentityProvider } from '../entities/identity-provider.entity';
import { SsoSettings } from '../sso.settings';
import { SsoErrors } from '../sso-errors';
import { SsoUrls } from '../sso-urls';
import { RedisSamlCache } from './redis-cache-provider';
import { SamlResponseFacts } from './saml-xml-guard';
import { SpKeys } from './sp-keys';

const ALGORITHMS: Record<string, 'sha1' | 'sha256' | 'sha512'> = {
  RSA_SHA1: 'sha1',
  RSA_SHA256: 'sha256',
  RSA_SHA512: 'sha512',
};
export const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** node-saml configured for one of our SAML providers, with this service as the SP. */
@Injectable()
export class SamlServiceProvider {
  constructor(
    private readonly settings: SsoSettings,
    private readonly urls: SsoUrls,
    private readonly keys: SpKeys,
    private readonly redis: RedisService,
  ) {}

  private build(
    provider: IdentityProvider,
    inResponseTo: ValidateInResponseTo,
    options: { requestId?: string; sign?: boolean } = {},
  ) {
    if (!provider.ssoUrl || !provider.idpCertificate || !provider.entityId) {
      throw SsoErrors.misconfigured('A SAML provider needs entityId, ssoUrl and idpCertificate');
    }
    const cache = new RedisSamlCache(this.redis, this.settings.SSO_STATE_TTL_SECONDS);
    const client = tenantContext.get().client;
    const entityId = this.urls.entityIdFor(client);
    const config: SamlConfig = {
      callbackUrl: client.isMaster ? this.urls.acs : this.urls.acsFor(client.identifier),
      entryPoint: provider.ssoUrl,
      issuer: entityId,
      audience: entityId,
      idpIssuer: provider.entityId,
      idpCert: provider.idpCertificate,
      wantAssertionsSigned: provider.wantAssertionsSigned,
      wantAuthnResponseSigned: false,
      validateInResponseTo: inResponseTo,
      requestIdExpirationPeriodMs: this.settings.SSO_STATE_TTL_SECONDS * 1000,
      cacheProvider: cache,
      acceptedClockSkewMs: this.settings.SSO_CLOCK_SKEW_SECONDS * 1000,
      identifierFormat: provider.nameIdFormat ?? EMAIL_FORMAT,
      signatureAlgorithm: ALGORITHMS[provider.signingAlgorithm] ?? 'sha256',
      digestAlgorithm: 'sha256',
      disableRequestedAuthnContext: true,
      logoutUrl: provider.sloUrl ?? undefined,
      logoutCallbackUrl: this.urls.slo,
      ...(options.requestId ? { generateUniqueId: () => options.requestId! } : {}),
      ...(options.sign ? { privateKey: this.keys.privateKeyPem, publicCert: this.keys.certificatePem } : {}),
    };
    // IdPs registered before clients had entity ids of their own keep answering to the shared one.
    return { saml: new ClientSaml(config, [this.urls.spEntityId]) };
  }

  /** The IdP redirect URL carrying an AuthnRequest with id `requestId` (signed when asked). */
  authorizeUrl(provider: IdentityProvider, relayState: string, requestId: string): Promise<string> {
    const { saml } = this.build(provider, ValidateInResponseTo.always, {
      requestId,
      sign: provider.wantAuthnRequestsSigned,
    });
    return saml.getAuthorizeUrlAsync(relayState, undefined, {});
  }

  /** Validates signatures, audience, issuer, time conditions and InResponseTo; checks destination. */
  async validate(
    provider: IdentityProvider,
    facts: SamlResponseFacts,
    spInitiated: boolean,
  ): Promise<Profile> {
    // The shared ACS, or the ACS (or its alias) of the client whose context the response is validated in.
    const client = tenantContext.get().client.identifier;
    const ours = [this.urls.acs, this.urls.acsFor(client), this.urls.acsAliasFor(client)];
    if (facts.destination && !ours.includes(facts.destination)) {
      throw SsoErrors.samlInvalid('The response Destination is not this ACS');
    }
    if (facts.recipients.some((r) => !ours.includes(r))) {
      throw SsoErrors.samlInvalid('The assertion Recipient is not this ACS');
    }
    const mode = spInitiated ? ValidateInResponseTo.always : ValidateInResponseTo.ifPresent;
    const { saml } = this.build(provider, mode);
    let result: Awaited<ReturnType<SAML['validatePostResponseAsync']>>;
    try {
      result = await saml.validatePostResponseAsync({
        SAMLResponse: Buffer.from(facts.xml, 'utf8').toString('base64'),
      });
    } catch (err) {
      throw SsoErrors.samlInvalid(`SAML response refused: ${(err as Error).message}`);
    }
    if (!result.profile) throw SsoErrors.samlInvalid('The SAML response carries no assertion');
    return result.profile;
  }

  /** IdP single-logout URL (signed LogoutRequest `requestId`) for a user whose last SAML login we know. */
  async logoutUrl(
    provider: IdentityProvider,
    user: { nameID: string; sessionIndex: string | null },
    relayState: string,
    requestId: string,
  ) {
    if (!provider.sloUrl) throw SsoErrors.misconfigured('The provider has no sloUrl');
    const { saml } = this.build(provider, ValidateInResponseTo.never, { sign: true, requestId });
    const profile: Profile = {
      issuer: provider.entityId!,
      nameID: user.nameID,
      nameIDFormat: provider.nameIdFormat ?? EMAIL_FORMAT,
      sessionIndex: user.sessionIndex ?? undefined,
    };
    return saml.getLogoutUrlAsync(profile, relayState, {});
  }

  /** Validates a signed HTTP-Redirect LogoutResponse (signature, issuer, status). */
  async validateLogoutResponse(provider: IdentityProvider, query: Record<string, string>, rawQuery: string) {
    const { saml } = this.build(provider, ValidateInResponseTo.never);
    try {
      const result = await saml.validateRedirectAsync(query, rawQuery);
      return result.loggedOut;
    } catch (err) {
      throw SsoErrors.samlInvalid(`LogoutResponse refused: ${(err as Error).message}`);
    }
  }
}

/** node-saml with more than one accepted audience: the client's entity id, then the shared one. */
class ClientSaml extends SAML {
  constructor(
    config: SamlConfig,
    private readonly alsoAccepted: string[],
  ) {
    super(config);
  }

  protected override checkAudienceValidityError(
    expected: string,
    restrictions: Parameters<SAML['checkAudienceValidityError']>[1],
  ): Error | null {
    const error = super.checkAudienceValidityError(expected, restrictions);
    if (!error) return null;
    const other = this.alsoAccepted.some((a) => !super.checkAudienceValidityError(a, restrictions));
    return other ? null : error;
  }
}
