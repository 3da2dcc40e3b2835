import {
  ErrorResponseDto,
  PASSWORD_BAD_REQUEST,
  PasswordErrorResponseDto,
} from '../../common/errors/error-envelope.dto';
import { Body, Controller, Query, UseGuards } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Route } from '../../access/route.decorator';
import { AuthService } from './auth.service';
import { LoginDto, LoginTokensDto, TwoFactorChallengeDto } from './dto/login.dto';
import { ForgotPasswordDto } from './dto/password.dto';
import { LogoutResponseDto, RefreshResponseDto, RefreshTokenDto } from './dto/refresh-token.dto';
import { EmailConfirmationResponseDto, RegisterDto, RegisterResponseDto } from './dto/register.dto';
import { EnvelopeBResponseDto, ResetPasswordDto } from './dto/reset-password.dto';
import { PasswordResetService } from './password-reset.service';
import { PublicAddressLimit } from './public-address-limit.guard';
import { RefreshTokenService } from './refresh-token.service';
import { RegistrationService } from './registration.service';

@ApiTags('Authentication')
@ApiExtraModels(PasswordErrorResponseDto, ErrorResponseDto)
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly resets: PasswordResetService,
    private readonly refreshTokens: RefreshTokenService,
    private readonly registration: RegistrationService,
  ) {}

  // Declared above @Route so that it replaces the single-DTO 200 answer with the union.
  @ApiExtraModels(LoginTokensDto, TwoFactorChallengeDto)
  @ApiOkResponse({
    description: 'The tokens, or the two-factor challenge when the account has a second factor',
    schema: {
      oneOf: [{ $ref: getSchemaPath(LoginTokensDto) }, { $ref: getSchemaPath(TwoFactorChallengeDto) }],
    },
  })
  @Route('POST', 'local', {
    summary: 'Log in with identifier (e-mail or username) and password (5 per minute)',
    public: true,
    status: 200,
    answers: {
      401: 'INVALID_CREDENTIALS',
      423: 'ACCOUNT_LOCKED after five failures in a row',
      429: 'RATE_LIMITED, with Retry-After',
    },
  })
  login(@Body() dto: LoginDto) {
    return this.auth.login(dto);
  }

  @Route('POST', 'local/register', {
    summary:
      'Register a VIEWER account of a client, blocked until the e-mail is confirmed; the same answer (and a mail to the owner) for a taken address',
    public: true,
    response: RegisterResponseDto,
    conflict: 'The client is at maxUsers',
    answers: {
      403: 'REGISTRATION_CLOSED: the master database, or registration turned off',
      503: 'BUSY: too many password hashes waiting, with Retry-After',
      429: 'RATE_LIMITED per address, with Retry-After',
    },
  })
  @UseGuards(PublicAddressLimit)
  register(@Body() dto: RegisterDto) {
    return this.registration.register(dto);
  }

  @Route('GET', 'email-confirmation', {
    summary: 'Confirm an e-mail address with the token from the registration mail',
    public: true,
    response: EmailConfirmationResponseDto,
    badRequest: 'Missing, invalid or expired token',
    conflict: 'The client is at maxUsers',
    answers: { 429: 'RATE_LIMITED per address, with Retry-After' },
  })
  @UseGuards(PublicAddressLimit)
  @ApiQuery({ name: 'confirmation', required: true })
  confirm(@Query('confirmation') confirmation: unknown) {
    return this.registration.confirm(confirmation);
  }

  @Route('POST', 'refresh-token', {
    summary: 'Rotate a refresh token: new access and refresh tokens; reuse revokes the family',
    public: true,
    response: RefreshResponseDto,
    status: 200,
    answers: { 401: 'INVALID_TOKEN or TOKEN_EXPIRED' },
  })
  refresh(@Body() dto: RefreshTokenDto) {
    return this.refreshTokens.refresh(dto.refreshToken);
  }

  @Route('POST', 'logout', {
    summary: 'Log out: revokes the refresh token and every token rotated from the same login',
    public: true,
    response: LogoutResponseDto,
    status: 200,
  })
  async logout(@Body() dto: RefreshTokenDto) {
    await this.refreshTokens.logout(dto.refreshToken);
    return { data: { loggedOut: true } };
  }

  @Route('POST', 'forgot-password', {
    summary: 'Mail a reset link; same answer whether or not the e-mail exists',
    public: true,
    response: EnvelopeBResponseDto,
    status: 200,
    answers: {
      400: { description: 'Email is required or invalid', schema: PASSWORD_BAD_REQUEST },
      429: 'RATE_LIMITED per address, with Retry-After',
    },
  })
  @UseGuards(PublicAddressLimit)
  @ApiBody({ type: ForgotPasswordDto })
  forgotPassword(@Body() body: unknown) {
    return this.resets.forgot(body);
  }

  @Route('POST', 'reset-password', {
    summary: 'Set a new password with the code from a reset or password-setup e-mail',
    public: true,
    response: EnvelopeBResponseDto,
    status: 200,
    answers: {
      400: { description: '{ success: false, message }', schema: PASSWORD_BAD_REQUEST },
      503: 'BUSY: too many password hashes waiting, with Retry-After',
      429: 'RATE_LIMITED per address, with Retry-After',
    },
  })
  @UseGuards(PublicAddressLimit)
  @ApiBody({ type: ResetPasswordDto })
  resetPassword(@Body() body: unknown) {
    return this.resets.reset(body);
  }
}
