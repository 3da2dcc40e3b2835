import { Body, Controller, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../access/route.decorator';
import { CurrentPrincipal } from '../access/access-rules';
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

  @Route('GET', 'linked-accounts', {
    summary: 'The SSO accounts linked to the caller',
    response: LinkedAccountListDto,
  })
  list(@CurrentPrincipal() principal: Principal) {
    return this.linked.list(principal);
  }

  @Route('POST', 'link', {
    summary: 'Start linking an SSO account to the caller: the IdP URL; the callback completes the link',
    response: AuthorizeEnvelopeDto,
    status: 200,
  })
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

  @Route('DELETE', 'link/:providerId', {
    summary: 'Unlink the caller’s account at a provider',
    notFound: true,
  })
  unlink(@CurrentPrincipal() principal: Principal, @Param('providerId', IdParam) providerId: number) {
    return this.linked.unlink(userOnly(principal), providerId);
  }

  @Route('POST', 'saml/logout', {
    summary: 'SAML single logout: the IdP URL (signed LogoutRequest) ending the IdP session',
    response: LogoutUrlEnvelopeDto,
    status: 200,
  })
  samlLogout(@CurrentPrincipal() principal: Principal, @Body() dto: SamlLogoutDto) {
    return this.linked.samlLogoutUrl(userOnly(principal), dto.providerId, dto.redirectUri);
  }
}
