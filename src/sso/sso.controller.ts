import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiForbiddenResponse,
  ApiFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../access/access-rules';
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

  @Get('providers')
  @Public()
  @ApiOperation({ summary: 'Enabled identity providers of the client (login buttons)' })
  @ApiOkResponse({ type: PublicProviderListDto })
  list() {
    return this.providers.publicList();
  }

  @Post('authorize')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Start an SSO login: the IdP authorization URL and the signed state' })
  @ApiOkResponse({ type: AuthorizeEnvelopeDto })
  @ApiBadRequestResponse({ description: 'Provider disabled or redirectUri not allowed' })
  authorize(@Body() dto: AuthorizeDto) {
    return this.flow.authorize(dto.providerId, dto.redirectUri);
  }

  @Get('callback/:providerId')
  @Public()
  @ApiOperation({ summary: 'OAuth2/OIDC redirect target; needs no client header (the state names it)' })
  @ApiQuery({ name: 'code', required: false })
  @ApiQuery({ name: 'state', required: true })
  @ApiOkResponse({ type: SsoLoginResponseDto, description: 'The login response of /auth/local' })
  @ApiFoundResponse({ description: 'To the redirectUri with ?code= for /auth/sso/exchange' })
  @ApiBadRequestResponse({ description: 'INVALID_STATE' })
  @ApiForbiddenResponse({ description: 'SSO_USER_NOT_PROVISIONED, SSO_DOMAIN_NOT_ALLOWED, ...' })
  async callback(
    @Param('providerId', IdParam) providerId: number,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return answer(res, await this.flow.callback(providerId, query, presentedLinkCookie(req)));
  }

  @Post('exchange')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Turn the one-time code of a post-login redirect into the login response' })
  @ApiOkResponse({ type: SsoLoginResponseDto })
  @ApiBadRequestResponse({ description: 'INVALID_CODE' })
  exchange(@Body() dto: ExchangeDto) {
    return this.codes.redeem(dto.code);
  }

  @Post('saml/acs')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'SAML assertion consumer service (HTTP-POST binding)' })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: SamlAcsDto })
  @ApiOkResponse({ type: SsoLoginResponseDto })
  @ApiFoundResponse({ description: 'To the redirectUri with ?code=' })
  @ApiUnauthorizedResponse({ description: 'SSO_SAML_INVALID, SSO_SAML_REPLAY' })
  async acs(@Body() dto: SamlAcsDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return answer(res, await this.saml.acs(dto, presentedLinkCookie(req)));
  }

  @Post('saml/acs/:client')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "A client's own SAML ACS (published in its SP metadata): IdP-initiated responses need no RelayState",
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOkResponse({ type: SsoLoginResponseDto })
  async clientAcs(
    @Param('client') client: string,
    @Body() dto: SamlAcsDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return answer(res, await this.saml.acsOf(client, dto, presentedLinkCookie(req)));
  }

  @Get('saml/slo')
  @Public()
  @ApiOperation({ summary: 'SAML single-logout return: validates the IdP’s signed LogoutResponse' })
  @ApiQuery({ name: 'SAMLResponse', required: true })
  @ApiQuery({ name: 'RelayState', required: true })
  @ApiOkResponse({ description: '{ data: { loggedOut: true } }' })
  @ApiFoundResponse({
    description: 'To the redirectUri given to /auth/sso/saml/logout, with ?loggedOut=true',
  })
  async slo(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const raw = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
    return answer(res, await this.saml.sloReturn(req.query, raw));
  }

  @Get('saml/metadata')
  @Public()
  @Header('Content-Type', 'application/samlmetadata+xml; charset=utf-8')
  @ApiOperation({ summary: 'SAML service-provider metadata (XML)' })
  @ApiProduces('application/samlmetadata+xml')
  @ApiOkResponse({ description: 'EntityDescriptor with entity id, ACS URL and NameID formats' })
  metadata() {
    return this.metadataOf(tenantContext.get().client);
  }

  @Get('saml/metadata/:client')
  @Public()
  @Header('Content-Type', 'application/samlmetadata+xml; charset=utf-8')
  @ApiOperation({
    summary: "One client's SP metadata (its own ACS URL), for IdPs that fetch it without headers",
  })
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
