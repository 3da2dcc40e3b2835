import {
  ErrorResponseDto,
  PASSWORD_BAD_REQUEST,
  PasswordErrorResponseDto,
} from '../../common/errors/error-envelope.dto';
import { Body, Controller } from '@nestjs/common';
import { ApiBody, ApiTags, ApiExtraModels } from '@nestjs/swagger';
import { Route } from '../../access/route.decorator';
import { CurrentPrincipal } from '../../access/access-rules';
import { ChangePasswordDto } from './dto/password.dto';
import { EnvelopeBResponseDto } from './dto/reset-password.dto';
import { PasswordChangeService } from './password-change.service';
import { Principal } from '../../access/principal';

@ApiTags('Authentication')
@ApiExtraModels(PasswordErrorResponseDto, ErrorResponseDto)
@Controller('api/custom')
export class ChangePasswordController {
  constructor(private readonly passwords: PasswordChangeService) {}

  @Route('POST', 'change-password', {
    summary: 'Change the own password; logs out every session',
    response: EnvelopeBResponseDto,
    status: 200,
    answers: { 400: { description: '{ success: false, message }', schema: PASSWORD_BAD_REQUEST } },
  })
  @ApiBody({ type: ChangePasswordDto })
  changePassword(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.passwords.change(principal, body);
  }
}
