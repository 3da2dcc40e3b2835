import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
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
  link(@CurrentPrincipal() principal: Principal, @Body() dto: LinkDto) {
    return this.flow.authorize(dto.providerId, dto.redirectUri, userOnly(principal).userId);
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
