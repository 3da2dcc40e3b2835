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

export class LoginResponseDto {
  @ApiPropertyOptional({ description: 'Access token (24 h)' }) jwt?: string;
  @ApiPropertyOptional({ description: 'Refresh token (7 days, rotates on use)' }) refreshToken?: string;
  @ApiPropertyOptional({ type: LoginUserDto }) user?: LoginUserDto;
  @ApiPropertyOptional({ type: SandboxSummaryDto }) sandbox?: SandboxSummaryDto;
  @ApiPropertyOptional({ description: 'Present (true) when a second factor is needed' })
  requires2FA?: boolean;
  @ApiPropertyOptional({ description: 'Short-lived, single-use token for /auth/2fa/authenticate' })
  tempToken?: string;
}
