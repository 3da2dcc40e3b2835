import { Module } from '@nestjs/common';
import { settingsProvider } from '../config/config.module';
import { OutboundModule } from '../outbound/outbound.module';
import { ClientScope } from './flow/client-scope';
import { ExchangeCodes } from './flow/exchange-codes';
import { LinkedAccountsService } from './flow/linked-accounts.service';
import { RedirectAllowlist } from './flow/redirect-allowlist';
import { SsoAccountsService } from './flow/sso-accounts.service';
import { SsoIdentitiesRepository } from './flow/sso-identities.repository';
import { SsoUsersRepository } from './flow/sso-users.repository';
import { SsoFlowService } from './flow/sso-flow.service';
import { SsoLoginService } from './flow/sso-login.service';
import { SsoStateService } from './flow/sso-state.service';
import { LegacySsoController } from './legacy-sso.controller';
import { LinkedAccountsController } from './linked-accounts.controller';
import { OidcClients } from './oidc/oidc-clients';
import { OidcFlowService } from './oidc/oidc-flow.service';
import { IdpHttp } from './outbound/idp-http';
import { IdentityProvidersController } from './providers/identity-providers.controller';
import { IdentityProvidersRepository } from './providers/identity-providers.repository';
import { IdentityProvidersService } from './providers/identity-providers.service';
import { SamlFlowService } from './saml/saml-flow.service';
import { SamlServiceProvider } from './saml/saml-service-provider';
import { SpKeys } from './saml/sp-keys';
import { SsoController } from './sso.controller';
import { SsoSettings } from './sso.settings';
import { SsoUrls } from './sso-urls';
import { IdentityProvider } from './entities/identity-provider.entity';
import { SsoIdentity } from './entities/sso-identity.entity';

export const SSO_ENTITIES = [IdentityProvider, SsoIdentity];

/** Single sign-on: OIDC, OAuth 2.0 and SAML 2.0 identity providers, JIT provisioning and linking. */
@Module({
  imports: [OutboundModule],
  controllers: [IdentityProvidersController, SsoController, LinkedAccountsController, LegacySsoController],
  providers: [
    settingsProvider(SsoSettings),
    SsoUrls,
    IdpHttp,
    OidcClients,
    IdentityProvidersService,
    SsoStateService,
    RedirectAllowlist,
    ExchangeCodes,
    ClientScope,
    SsoAccountsService,
    SsoLoginService,
    OidcFlowService,
    SpKeys,
    SamlServiceProvider,
    SamlFlowService,
    SsoFlowService,
    LinkedAccountsService,
    IdentityProvidersRepository,
    SsoIdentitiesRepository,
    SsoUsersRepository,
  ],
})
export class SsoModule {}
