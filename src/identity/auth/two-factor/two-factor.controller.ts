import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, Public } from '../../../access/access-rules';
import { LoginResponseDto } from '../dto/login.dto';
import { Principal } from '../../../access/principal';
import {
  TwoFactorAuthenticateDto,
  TwoFactorCodeDto,
  TwoFactorEnrolmentDto,
  TwoFactorRecoverDto,
  TwoFactorStateDto,
  TwoFactorVerifyDto,
} from './dto/two-factor.dto';
import { TwoFactorService } from './two-factor.service';

@ApiTags('Authentication: two-factor')
@Controller('auth/2fa')
export class TwoFactorController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  @Post('enable')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start TOTP enrolment: secret, otpauth URI and recovery codes (active after verify)',
  })
  @ApiOkResponse({ type: TwoFactorEnrolmentDto })
  enable(@CurrentPrincipal() principal: Principal) {
    return this.twoFactor.enable(principal);
  }

  @Post('verify')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm enrolment with a code from the authenticator' })
  @ApiOkResponse({ type: TwoFactorStateDto })
  verify(@CurrentPrincipal() principal: Principal, @Body() dto: TwoFactorVerifyDto) {
    return this.twoFactor.verify(principal, dto.code);
  }

  @Post('disable')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'Turn two-factor off with a current code (or a recovery code)' })
  @ApiOkResponse({ type: TwoFactorStateDto })
  disable(@CurrentPrincipal() principal: Principal, @Body() dto: TwoFactorCodeDto) {
    return this.twoFactor.disable(principal, dto.code);
  }

  @Post('authenticate')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Complete a password login with a TOTP code (5 per minute)' })
  @ApiOkResponse({ type: LoginResponseDto })
  @ApiTooManyRequestsResponse({ description: 'RATE_LIMITED, with Retry-After' })
  authenticate(@Body() dto: TwoFactorAuthenticateDto) {
    return this.twoFactor.authenticate(dto.tempToken, dto.code);
  }

  @Post('recover')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Complete a password login with a single-use recovery code' })
  @ApiOkResponse({ type: LoginResponseDto })
  @ApiTooManyRequestsResponse({ description: 'RATE_LIMITED, with Retry-After' })
  recover(@Body() dto: TwoFactorRecoverDto) {
    return this.twoFactor.recover(dto.tempToken, dto.recoveryCode);
  }
}
