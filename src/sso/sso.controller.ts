import { Body, Controller, Header, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Route } from '../access/route.decorator';
import {
  AuthorizeDto,
  AuthorizeEnvelopeDto,
  ExchangeDto,
  PublicProviderListDto,
  SamlAcsDto,
  SsoLoginResponseDto,
} from './dto/sso-flow.dto';
import { ExchangeCodes } from './flow/exchange-codes';
import { presentedLinkCookie } from './flow/link-binding';
import { SsoFlowService } from './flow/sso-flow.service';
import { SsoOutcome } from './flow/sso-login.service';
import { IdentityProvidersService } from './providers/identity-providers.service';
import { SamlFlowService } from './saml/saml-flow.service';
import { SpKeys } from './saml/sp-keys';
import { spMetadataXml } from './saml/sp-metadata';
import { SsoUrls } from './sso-urls';
import { tenantContext } from '../tenancy/tenant-context';
import { IdParam } from '../common/validation/id-param.pipe';

/** Sends a flow's outcome: JSON, or a 302 to the allow-listed redirect. */
export function answer(res: Response, outcome: SsoOutcome) {
  if (outcome.kind === 'redirect') {
    res.redirect(302, outcome.url);
    return undefined;
  }
  return outcome.body;
}

@ApiTags('Single sign-on')
@Controller('auth/sso')
export class SsoController {
  constructor(
    private readonly providers: IdentityProvidersService,
    private readonly flow: SsoFlowService,
    private readonly saml: SamlFlowService,
    private readonly codes: ExchangeCodes,
    private readonly urls: SsoUrls,
    private readonly keys: SpKeys,
  ) {}

  @Route('GET', 'providers', {
    summary: 'Enabled identity providers of the client (login buttons)',
    public: true,
    response: PublicProviderListDto,
  })
  list() {
    return this.providers.publicList();
  }

  @Route('POST', 'authorize', {
    summary: 'Start an SSO login: the IdP authorization URL and the signed state',
    public: true,
    response: AuthorizeEnvelopeDto,
    status: 200,
    badRequest: 'Provider disabled or redirectUri not allowed',
  })
  authorize(@Body() dto: AuthorizeDto) {
    return this.flow.authorize(dto.providerId, dto.redirectUri);
  }

  @Route('GET', 'callback/:providerId', {
    summary: 'OAuth2/OIDC redirect target; needs no client header (the state names it)',
    public: true,
    response: SsoLoginResponseDto,
    responseDescription: 'The login response of /auth/local',
    badRequest: 'INVALID_STATE',
    answers: {
      302: 'To the redirectUri with ?code= for /auth/sso/exchange',
      403: 'SSO_USER_NOT_PROVISIONED, SSO_DOMAIN_NOT_ALLOWED, ...',
    },
  })
  @ApiQuery({ name: 'code', required: false })
  @ApiQuery({ name: 'state', required: true })
  async callback(
    @Param('providerId', IdParam) providerId: number,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return answer(res, await this.flow.callback(providerId, query, presentedLinkCookie(req)));
  }

  @Route('POST', 'exchange', {
    summary: 'Turn the one-time code of a post-login redirect into the login response',
    public: true,
    response: SsoLoginResponseDto,
    status: 200,
    badRequest: 'INVALID_CODE',
  })
  exchange(@Body() dto: ExchangeDto) {
    return this.codes.redeem(dto.code);
  }

  @Route('POST', 'saml/acs', {
    summary: 'SAML assertion consumer service (HTTP-POST binding)',
    public: true,
    status: 200,
    response: SsoLoginResponseDto,
    answers: { 302: 'To the redirectUri with ?code=', 401: 'SSO_SAML_INVALID, SSO_SAML_REPLAY' },
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: SamlAcsDto })
  async acs(@Body() dto: SamlAcsDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return answer(res, await this.saml.acs(dto, presentedLinkCookie(req)));
  }

  @Route('POST', 'saml/acs/:client', {
    summary:
      'Alias of POST /auth/sso/saml/acs?client={client} (the per-client ACS earlier metadata published)',
    public: true,
    response: SsoLoginResponseDto,
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  async clientAcs(
    @Param('client') client: string,
    @Body() dto: SamlAcsDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return answer(res, await this.saml.acsOf(client, dto, presentedLinkCookie(req)));
  }

  @Route('GET', 'saml/slo', {
    summary: 'SAML single-logout return: validates the IdP’s signed LogoutResponse',
    public: true,
    responseDescription: '{ data: { loggedOut: true } }',
    answers: { 302: 'To the redirectUri given to /auth/sso/saml/logout, with ?loggedOut=true' },
  })
  @ApiQuery({ name: 'SAMLResponse', required: true })
  @ApiQuery({ name: 'RelayState', required: true })
  async slo(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const raw = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
    return answer(res, await this.saml.sloReturn(req.query, raw));
  }

  @Route('GET', 'saml/metadata', {
    summary: 'SAML service-provider metadata (XML)',
    public: true,
    responseDescription: 'EntityDescriptor with entity id, ACS URL and NameID formats',
  })
  @Header('Content-Type', 'application/samlmetadata+xml; charset=utf-8')
  @ApiProduces('application/samlmetadata+xml')
  metadata() {
    return this.metadataOf(tenantContext.get().client);
  }

  @Route('GET', 'saml/metadata/:client', {
    summary: "One client's SP metadata (its own ACS URL), for IdPs that fetch it without headers",
    public: true,
  })
  @Header('Content-Type', 'application/samlmetadata+xml; charset=utf-8')
  @ApiProduces('application/samlmetadata+xml')
  clientMetadata(@Param('client') client: string) {
    return this.metadataOf(this.saml.clientOf(client));
  }

  private metadataOf(client: { identifier: string; isMaster: boolean }) {
    return spMetadataXml({
      entityId: this.urls.entityIdFor(client),
      acsUrl: client.isMaster ? this.urls.acs : this.urls.acsFor(client.identifier),
      sloUrl: this.urls.slo,
      certificateBody: this.keys.certificateBody,
    });
  }
}
