import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../access/access-rules';
import { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import {
  AuthorizeEnvelopeDto,
  LinkDto,
  LinkedAccountListDto,
  LogoutUrlEnvelopeDto,
  SamlLogoutDto,
} from './dto/sso-flow.dto';
import { LinkedAccountsService } from './flow/linked-accounts.service';
import { SsoFlowService } from './flow/sso-flow.service';
import { newLinkBinding, setLinkCookie } from './flow/link-binding';
import { SsoSettings } from './sso.settings';
import { SsoUrls } from './sso-urls';
import { IdParam } from '../common/validation/id-param.pipe';

const userOnly = (principal: Principal) => {
  if (principal.via !== 'jwt') throw AppError.forbidden('Linking SSO accounts needs a user session');
  return principal;
};

@ApiTags('Single sign-on')
@Controller('auth/sso')
export class LinkedAccountsController {
  constructor(
    private readonly linked: LinkedAccountsService,
    private readonly flow: SsoFlowService,
    private readonly settings: SsoSettings,
    private readonly urls: SsoUrls,
  ) {}

  @Get('linked-accounts')
  @Authenticated()
  @ApiOperation({ summary: 'The SSO accounts linked to the caller' })
  @ApiOkResponse({ type: LinkedAccountListDto })
  list(@CurrentPrincipal() principal: Principal) {
    return this.linked.list(principal);
  }

  @Post('link')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Start linking an SSO account to the caller: the IdP URL; the callback completes the link',
  })
  @ApiOkResponse({ type: AuthorizeEnvelopeDto })
  async link(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: LinkDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const binding = newLinkBinding();
    const answer = await this.flow.authorize(
      dto.providerId,
      dto.redirectUri,
      userOnly(principal).userId,
      binding.hash,
    );
    const secure = this.urls.base.startsWith('https:');
    setLinkCookie(res, binding.cookie, this.settings.SSO_STATE_TTL_SECONDS, secure);
    return answer;
  }

  @Delete('link/:providerId')
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({ summary: 'Unlink the caller’s account at a provider' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse()
  unlink(@CurrentPrincipal() principal: Principal, @Param('providerId', IdParam) providerId: number) {
    return this.linked.unlink(userOnly(principal), providerId);
  }

  @Post('saml/logout')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({ summary: 'SAML single logout: the IdP URL (signed LogoutRequest) ending the IdP session' })
  @ApiOkResponse({ type: LogoutUrlEnvelopeDto })
  samlLogout(@CurrentPrincipal() principal: Principal, @Body() dto: SamlLogoutDto) {
    return this.linked.samlLogoutUrl(userOnly(principal), dto.providerId, dto.redirectUri);
  }
}
