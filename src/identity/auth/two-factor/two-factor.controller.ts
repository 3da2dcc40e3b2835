import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../../../access/route.decorator';
import { CurrentPrincipal } from '../../../access/access-rules';
import { LoginTokensDto } from '../dto/login.dto';
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

  @Route('POST', 'enable', {
    summary: 'Start TOTP enrolment: secret, otpauth URI and recovery codes (active after verify)',
    response: TwoFactorEnrolmentDto,
    status: 200,
  })
  enable(@CurrentPrincipal() principal: Principal) {
    return this.twoFactor.enable(principal);
  }

  @Route('POST', 'verify', {
    summary: 'Confirm enrolment with a code from the authenticator',
    response: TwoFactorStateDto,
    status: 200,
  })
  verify(@CurrentPrincipal() principal: Principal, @Body() dto: TwoFactorVerifyDto) {
    return this.twoFactor.verify(principal, dto.code);
  }

  @Route('POST', 'disable', {
    summary: 'Turn two-factor off with a current code (or a recovery code)',
    response: TwoFactorStateDto,
    status: 200,
  })
  disable(@CurrentPrincipal() principal: Principal, @Body() dto: TwoFactorCodeDto) {
    return this.twoFactor.disable(principal, dto.code);
  }

  @Route('POST', 'authenticate', {
    summary: 'Complete a password login with a TOTP code (5 per minute)',
    public: true,
    response: LoginTokensDto,
    status: 200,
    answers: { 429: 'RATE_LIMITED, with Retry-After' },
  })
  authenticate(@Body() dto: TwoFactorAuthenticateDto) {
    return this.twoFactor.authenticate(dto.tempToken, dto.code);
  }

  @Route('POST', 'recover', {
    summary: 'Complete a password login with a single-use recovery code',
    public: true,
    response: LoginTokensDto,
    status: 200,
    answers: { 429: 'RATE_LIMITED, with Retry-After' },
  })
  recover(@Body() dto: TwoFactorRecoverDto) {
    return this.twoFactor.recover(dto.tempToken, dto.recoveryCode);
  }
}
