import { SandboxSummaryDto } from '../../identity';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { PROVIDER_TYPES } from '../entities/identity-provider.entity';

export class AuthorizeDto {
  @ApiProperty({ example: 1 })
  @IsInt()
  @Min(1)
  providerId: number;

  @ApiPropertyOptional({
    example: 'https://app.example.com/sso/done',
    description:
      'Post-login redirect (origin must be in SSO_REDIRECT_ALLOWLIST); gets ?code= for /auth/sso/exchange',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  redirectUri?: string;
}

export class LinkDto extends AuthorizeDto {}

export class ExchangeDto {
  @ApiProperty({ description: 'One-time code from the post-login redirect' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  code: string;
}

export class SamlAcsDto {
  @ApiProperty({ description: 'Base64 SAML Response (HTTP-POST binding)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(400000)
  SAMLResponse: string;

  @ApiPropertyOptional({ description: 'The state of an SP-initiated login, or an allow-listed URL' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  RelayState?: string;
}

export class SamlLogoutDto extends AuthorizeDto {}

class AuthorizeResultDto {
  @ApiProperty({ description: 'Send the browser here' }) authorizationUrl: string;
  @ApiProperty({ description: 'Signed state, valid 10 minutes, single use' }) state: string;
}

export class AuthorizeEnvelopeDto {
  @ApiProperty({ type: AuthorizeResultDto }) data: AuthorizeResultDto;
}

class PublicProviderDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ enum: PROVIDER_TYPES }) providerType: string;
}

export class PublicProviderListDto {
  @ApiProperty({ type: [PublicProviderDto] }) data: PublicProviderDto[];
}

class LinkedAccountDto {
  @ApiProperty() providerId: number;
  @ApiProperty() providerName: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ enum: PROVIDER_TYPES }) providerType: string;
  @ApiProperty() subject: string;
  @ApiPropertyOptional({ nullable: true, type: String }) email: string | null;
  @ApiProperty() linkedAt: Date;
  @ApiPropertyOptional({ nullable: true, type: Date }) lastLoginAt: Date | null;
}

export class LinkedAccountListDto {
  @ApiProperty({ type: [LinkedAccountDto] }) data: LinkedAccountDto[];
}

class SsoRoleDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() type: string;
}

class SsoUserDto {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
  @ApiPropertyOptional({ nullable: true, type: String }) firstName: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) lastName: string | null;
  @ApiProperty({ type: SsoRoleDto }) role: SsoRoleDto;
}

/** The login response of /auth/local. */
export class SsoLoginResponseDto {
  @ApiProperty() jwt: string;
  @ApiProperty() refreshToken: string;
  @ApiProperty({ type: SsoUserDto }) user: SsoUserDto;
  @ApiProperty({ type: SandboxSummaryDto, description: 'The sandbox (production: slug main)' })
  sandbox: SandboxSummaryDto;
}

class LogoutUrlDto {
  @ApiProperty({ description: 'IdP single-logout URL with a signed LogoutRequest' }) logoutUrl: string;
}

export class LogoutUrlEnvelopeDto {
  @ApiProperty({ type: LogoutUrlDto }) data: LogoutUrlDto;
}

/** The answer of a completed single logout. */
export class LoggedOutEnvelopeDto {
  @ApiProperty({
    type: 'object',
    properties: { loggedOut: { type: 'boolean' } },
    required: ['loggedOut'],
    example: { loggedOut: true },
  })
  data: { loggedOut: boolean };
}

class SsoLinkedDto {
  @ApiProperty({ enum: [true] }) linked: boolean;
  @ApiProperty({ type: 'integer' }) providerId: number;
  @ApiProperty({ description: "The identity provider's subject now linked to the user" }) subject: string;
}

/** The answer of a callback that linked an identity to the signed-in user (no login). */
export class SsoLinkedEnvelopeDto {
  @ApiProperty({ type: SsoLinkedDto }) data: SsoLinkedDto;
}
