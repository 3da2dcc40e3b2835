import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class LoginDto {
  @ApiProperty({ description: 'E-mail address or username', example: 'admin@example.com' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(254)
  identifier: string;

  @ApiProperty({ example: 'correct horse battery staple' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  password: string;
}

class LoginRoleDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['SUPER_ADMIN', 'ADMIN', 'MANAGER', 'OPERATOR', 'VIEWER'] }) type: string;
}

class LoginUserDto {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
  @ApiPropertyOptional({ nullable: true, type: String }) username: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) firstName: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) lastName: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiProperty({ type: LoginRoleDto }) role: LoginRoleDto;
}

export class SandboxSummaryDto {
  @ApiProperty({ description: '0 for production' }) id: number;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'main' }) slug: string;
  @ApiProperty({ example: 'public' }) schemaName: string;
  @ApiProperty() isMain: boolean;
}

/** The answer of a completed login: tokens, the user and the sandbox. */
export class LoginTokensDto {
  @ApiProperty({ description: 'Access token (24 h)' }) jwt: string;
  @ApiProperty({ description: 'Refresh token (7 days, rotates on use)' }) refreshToken: string;
  @ApiProperty({ type: LoginUserDto }) user: LoginUserDto;
  @ApiProperty({ type: SandboxSummaryDto }) sandbox: SandboxSummaryDto;
}

/** The answer of a right password on an account with two-factor authentication on. */
export class TwoFactorChallengeDto {
  @ApiProperty({ enum: [true], description: 'A second factor is needed: /auth/2fa/authenticate' })
  requires2FA: true;
  @ApiProperty({ description: 'Short-lived, single-use token for /auth/2fa/authenticate' })
  tempToken: string;
}
