import { Body, Controller, Param, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Route } from '../access/route.decorator';
import {
  AuthorizeDto,
  AuthorizeEnvelopeDto,
  ExchangeDto,
  PublicProviderListDto,
  SamlAcsDto,
  SsoLoginResponseDto,
  LoggedOutEnvelopeDto,
  SsoLinkedEnvelopeDto,
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
import { TwoFactorChallengeDto } from '../identity';
import { IdParam } from '../common/validation/id-param.pipe';

/**
 * A callback logs in (tokens, or the two-factor challenge of a user enrolled in 2FA), or links an
 * identity to the signed-in user when the flow was a link.
 */
const LOGIN_OR_LINKED = {
  description: 'The login response of /auth/local, or the identity linked',
  schema: {
    oneOf: [
      { $ref: getSchemaPath(SsoLoginResponseDto) },
      { $ref: getSchemaPath(TwoFactorChallengeDto) },
      { $ref: getSchemaPath(SsoLinkedEnvelopeDto) },
    ],
  },
};

const SAML_METADATA = {
  description: 'EntityDescriptor with entity id, ACS URL and NameID formats',
  content: { 'application/samlmetadata+xml': { schema: { type: 'string' as const } } },
};

/** Sends a flow's outcome: JSON, or a 302 to the allow-listed redirect. */
export function answer(res: Response, outcome: SsoOutcome) {
  if (outcome.kind === 'redirect') {
    res.redirect(302, outcome.url);
    return undefined;
  }
  return outcome.body;
}

@ApiTags('Single sign-on')
@ApiExtraModels(SsoLoginResponseDto, TwoFactorChallengeDto, SsoLinkedEnvelopeDto)
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
    badRequest: 'INVALID_STATE',
    answers: {
      302: 'To the redirectUri with ?code= for /auth/sso/exchange',
      403: 'SSO_USER_NOT_PROVISIONED, SSO_DOMAIN_NOT_ALLOWED, ...',
    },
  })
  @ApiOkResponse(LOGIN_OR_LINKED)
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
    status: 200,
    badRequest: 'INVALID_CODE',
  })
  @ApiOkResponse(LOGIN_OR_LINKED)
  exchange(@Body() dto: ExchangeDto) {
    return this.codes.redeem(dto.code);
  }

  @Route('POST', 'saml/acs', {
    summary: 'SAML assertion consumer service (HTTP-POST binding)',
    public: true,
    status: 200,
    answers: { 302: 'To the redirectUri with ?code=', 401: 'SSO_SAML_INVALID, SSO_SAML_REPLAY' },
  })
  @ApiOkResponse(LOGIN_OR_LINKED)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: SamlAcsDto })
  async acs(@Body() dto: SamlAcsDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return answer(res, await this.saml.acs(dto, presentedLinkCookie(req)));
  }

  @Route('POST', 'saml/acs/:client', {
    summary:
      'Alias of POST /auth/sso/saml/acs?client={client} (the per-client ACS earlier metadata published)',
    public: true,
  })
  @ApiOkResponse(LOGIN_OR_LINKED)
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
    response: LoggedOutEnvelopeDto,
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
  })
  @ApiOkResponse(SAML_METADATA)
  metadata(@Res({ passthrough: true }) res: Response) {
    return this.metadataOf(res, tenantContext.get().client);
  }

  @Route('GET', 'saml/metadata/:client', {
    summary: "One client's SP metadata (its own ACS URL), for IdPs that fetch it without headers",
    public: true,
  })
  @ApiOkResponse(SAML_METADATA)
  clientMetadata(@Param('client') client: string, @Res({ passthrough: true }) res: Response) {
    return this.metadataOf(res, this.saml.clientOf(client));
  }

  /** The content type is set once the client is known, so an error keeps its JSON envelope's. */
  private metadataOf(res: Response, client: { identifier: string; isMaster: boolean }) {
    res.type('application/samlmetadata+xml; charset=utf-8');
    return spMetadataXml({
      entityId: this.urls.entityIdFor(client),
      acsUrl: client.isMaster ? this.urls.acs : this.urls.acsFor(client.identifier),
      sloUrl: this.urls.slo,
      certificateBody: this.keys.certificateBody,
    });
  }
}
