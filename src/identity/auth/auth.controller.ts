import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public } from '../../access/access-rules';
import { AuthService } from './auth.service';
import { LoginDto, LoginResponseDto } from './dto/login.dto';
import { ForgotPasswordDto } from './dto/password.dto';
import { LogoutResponseDto, RefreshResponseDto, RefreshTokenDto } from './dto/refresh-token.dto';
import { EmailConfirmationResponseDto, RegisterDto, RegisterResponseDto } from './dto/register.dto';
import { EnvelopeBResponseDto, ResetPasswordDto } from './dto/reset-password.dto';
import { PasswordResetService } from './password-reset.service';
import { PublicAddressLimit } from './public-address-limit.guard';
import { RefreshTokenService } from './refresh-token.service';
import { RegistrationService } from './registration.service';

@ApiTags('Authentication')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly resets: PasswordResetService,
    private readonly refreshTokens: RefreshTokenService,
    private readonly registration: RegistrationService,
  ) {}

  @Post('local')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Log in with identifier (e-mail or username) and password (5 per minute)' })
  @ApiOkResponse({ type: LoginResponseDto })
  @ApiUnauthorizedResponse({ description: 'INVALID_CREDENTIALS' })
  @ApiResponse({ status: 423, description: 'ACCOUNT_LOCKED after five failures in a row' })
  @ApiTooManyRequestsResponse({ description: 'RATE_LIMITED, with Retry-After' })
  login(@Body() dto: LoginDto) {
    return this.auth.login(dto);
  }

  @Post('local/register')
  @Public()
  @UseGuards(PublicAddressLimit)
  @ApiOperation({
    summary:
      'Register a VIEWER account of a client, blocked until the e-mail is confirmed; the same answer (and a mail to the owner) for a taken address',
  })
  @ApiCreatedResponse({ type: RegisterResponseDto })
  @ApiForbiddenResponse({
    description: 'REGISTRATION_CLOSED: the master database, or registration turned off',
  })
  @ApiConflictResponse({ description: 'The client is at maxUsers' })
  @ApiResponse({ status: 503, description: 'BUSY: too many password hashes waiting, with Retry-After' })
  @ApiTooManyRequestsResponse({ description: 'RATE_LIMITED per address, with Retry-After' })
  register(@Body() dto: RegisterDto) {
    return this.registration.register(dto);
  }

  @Get('email-confirmation')
  @Public()
  @UseGuards(PublicAddressLimit)
  @ApiOperation({ summary: 'Confirm an e-mail address with the token from the registration mail' })
  @ApiQuery({ name: 'confirmation', required: true })
  @ApiOkResponse({ type: EmailConfirmationResponseDto })
  @ApiBadRequestResponse({ description: 'Missing, invalid or expired token' })
  @ApiConflictResponse({ description: 'The client is at maxUsers' })
  @ApiTooManyRequestsResponse({ description: 'RATE_LIMITED per address, with Retry-After' })
  confirm(@Query('confirmation') confirmation: unknown) {
    return this.registration.confirm(confirmation);
  }

  @Post('refresh-token')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate a refresh token: new access and refresh tokens; reuse revokes the family',
  })
  @ApiOkResponse({ type: RefreshResponseDto })
  @ApiUnauthorizedResponse({ description: 'INVALID_TOKEN or TOKEN_EXPIRED' })
  refresh(@Body() dto: RefreshTokenDto) {
    return this.refreshTokens.refresh(dto.refreshToken);
  }

  @Post('logout')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Log out: revokes the refresh token and every token rotated from the same login' })
  @ApiOkResponse({ type: LogoutResponseDto })
  async logout(@Body() dto: RefreshTokenDto) {
    await this.refreshTokens.logout(dto.refreshToken);
    return { data: { loggedOut: true } };
  }

  @Post('forgot-password')
  @Public()
  @UseGuards(PublicAddressLimit)
  @HttpCode(200)
  @ApiOperation({ summary: 'Mail a reset link; same answer whether or not the e-mail exists' })
  @ApiBody({ type: ForgotPasswordDto })
  @ApiOkResponse({ type: EnvelopeBResponseDto })
  @ApiBadRequestResponse({ type: EnvelopeBResponseDto, description: 'Email is required' })
  @ApiTooManyRequestsResponse({ description: 'RATE_LIMITED per address, with Retry-After' })
  forgotPassword(@Body() body: unknown) {
    return this.resets.forgot(body);
  }

  @Post('reset-password')
  @Public()
  @UseGuards(PublicAddressLimit)
  @HttpCode(200)
  @ApiOperation({ summary: 'Set a new password with the code from a reset or password-setup e-mail' })
  @ApiBody({ type: ResetPasswordDto })
  @ApiOkResponse({ type: EnvelopeBResponseDto })
  @ApiBadRequestResponse({ type: EnvelopeBResponseDto, description: '{ success: false, message }' })
  @ApiResponse({ status: 503, description: 'BUSY: too many password hashes waiting, with Retry-After' })
  @ApiTooManyRequestsResponse({ description: 'RATE_LIMITED per address, with Retry-After' })
  resetPassword(@Body() body: unknown) {
    return this.resets.reset(body);
  }
}
