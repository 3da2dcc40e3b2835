import { Body, Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiFoundResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Route } from '../access/route.decorator';
import { Public } from '../access/access-rules';
import { PublicProviderListDto, SamlAcsDto, SsoLoginResponseDto } from './dto/sso-flow.dto';
import { SsoFlowService } from './flow/sso-flow.service';
import { IdentityProvidersService } from './providers/identity-providers.service';
import { SamlFlowService } from './saml/saml-flow.service';
import { answer } from './sso.controller';

/** The older paths of the SSO API, kept as aliases. */
@ApiTags('Single sign-on (older paths)')
@Controller('sso')
export class LegacySsoController {
  constructor(
    private readonly providers: IdentityProvidersService,
    private readonly flow: SsoFlowService,
    private readonly saml: SamlFlowService,
  ) {}

  @Route('GET', 'providers', {
    summary: 'Alias of GET /auth/sso/providers',
    public: true,
    response: PublicProviderListDto,
  })
  list() {
    return this.providers.publicList();
  }

  @Get('login/:provider')
  @Public()
  @ApiOperation({
    summary: 'Start an SSO login in the browser: 302 to the IdP (provider id or name)',
    description:
      'Earlier path of `POST /auth/sso/authorize` for browsers: redirects to the provider.\n\nAccess: public, no credential.',
  })
  @ApiQuery({ name: 'redirectUri', required: false })
  @ApiFoundResponse({ description: 'To the identity provider' })
  async login(
    @Param('provider') provider: string,
    @Query('redirectUri') redirectUri: string | undefined,
    @Res() res: Response,
  ) {
    res.redirect(
      302,
      await this.flow.loginUrl(provider, typeof redirectUri === 'string' ? redirectUri : undefined),
    );
  }

  @Route('POST', 'callback/saml', {
    summary: 'Alias of POST /auth/sso/saml/acs',
    public: true,
    response: SsoLoginResponseDto,
    status: 200,
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: SamlAcsDto })
  async samlCallback(@Body() dto: SamlAcsDto, @Res({ passthrough: true }) res: Response) {
    return answer(res, await this.saml.acs(dto));
  }

  @Route('GET', 'callback/oidc', {
    summary: 'Alias of GET /auth/sso/callback/{providerId} (the provider comes from the state)',
    public: true,
    response: SsoLoginResponseDto,
  })
  @ApiQuery({ name: 'state', required: true })
  async oidcCallback(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) res: Response) {
    return answer(res, await this.flow.callback(null, query));
  }
}
