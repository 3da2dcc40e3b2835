import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from './auth.decorators';
import { AuthService } from './auth.service';
import { LoginDto, LoginResponseDto } from './dto/login.dto';
import { EnvelopeBResponseDto, ResetPasswordDto } from './dto/reset-password.dto';
import { PasswordResetService } from './password-reset.service';

@ApiTags('Authentication')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly resets: PasswordResetService,
  ) {}

  @Post('local')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Log in with identifier (e-mail or username) and password' })
  @ApiOkResponse({ type: LoginResponseDto })
  login(@Body() dto: LoginDto) {
    return this.auth.login(dto);
  }

  @Post('reset-password')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Set a new password with the code from a reset or password-setup e-mail' })
  @ApiBody({ type: ResetPasswordDto })
  @ApiOkResponse({ type: EnvelopeBResponseDto })
  @ApiBadRequestResponse({ type: EnvelopeBResponseDto, description: '{ success: false, message }' })
  resetPassword(@Body() body: unknown) {
    return this.resets.reset(body);
  }
}
