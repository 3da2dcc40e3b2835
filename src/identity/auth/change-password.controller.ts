import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../../access/access-rules';
import { ChangePasswordDto } from './dto/password.dto';
import { EnvelopeBResponseDto } from './dto/reset-password.dto';
import { PasswordChangeService } from './password-change.service';
import { Principal } from '../../access/principal';

@ApiTags('Authentication')
@Controller('api/custom')
export class ChangePasswordController {
  constructor(private readonly passwords: PasswordChangeService) {}

  @Post('change-password')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'Change the own password; logs out every session' })
  @ApiBody({ type: ChangePasswordDto })
  @ApiOkResponse({ type: EnvelopeBResponseDto })
  @ApiBadRequestResponse({ type: EnvelopeBResponseDto, description: '{ success: false, message }' })
  changePassword(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.passwords.change(principal, body);
  }
}
