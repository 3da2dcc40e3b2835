import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/pagination';

export class CreateUserDto {
  @ApiProperty({ example: 'jane@example.com' })
  @IsEmail()
  @MaxLength(254)
  email: string;

  @ApiPropertyOptional({ example: 'jane', description: 'Defaults to the e-mail' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._@-]{2,100}$/, { message: 'username may contain letters, digits, . _ @ -' })
  username?: string;

  @ApiPropertyOptional({ example: 'Jane' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  firstName?: string;

  @ApiPropertyOptional({ example: 'Doe' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  lastName?: string;

  @ApiPropertyOptional({ minLength: 8, description: 'Without it, a password-setup link is mailed' })
  @IsOptional()
  @IsString()
  @MinLength(8, { message: 'Password must be at least 8 characters' })
  @MaxLength(200)
  password?: string;

  @ApiProperty({ example: 5 })
  @IsInt()
  @Min(1)
  roleId: number;

  @ApiPropertyOptional({ description: 'Defaults to the creator’s company' })
  @IsOptional()
  @IsInt()
  @Min(1)
  companyId?: number;
}

export class UpdateUserDto {
  @ApiPropertyOptional() @IsOptional() @IsEmail() @MaxLength(254) email?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._@-]{2,100}$/, { message: 'username may contain letters, digits, . _ @ -' })
  username?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) firstName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) lastName?: string;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(1) companyId?: number;
}

export class AssignRoleDto {
  @ApiProperty({ example: 3 })
  @IsInt()
  @Min(1)
  roleId: number;
}

export class GrantSandboxesDto {
  @ApiProperty({ type: [Number], example: [1, 2], description: 'Replaces the user’s granted sandboxes' })
  @IsArray()
  @ArrayMaxSize(500)
  @IsInt({ each: true })
  @Min(1, { each: true })
  sandboxIds: number[];
}

export class UserQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Matches e-mail, username, first or last name' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ description: 'Only blocked (true) or active (false) users' })
  @IsOptional()
  @Type(() => String)
  @Matches(/^(true|false)$/, { message: 'blocked must be true or false' })
  blocked?: string;
}

export class UserRoleDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['SUPER_ADMIN', 'ADMIN', 'MANAGER', 'OPERATOR', 'VIEWER'] }) type: string;
}

export class UserDto {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
  @ApiPropertyOptional({ nullable: true, type: String }) username: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) firstName: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) lastName: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiProperty({ type: UserRoleDto }) role: UserRoleDto;
  @ApiProperty() blocked: boolean;
  @ApiProperty() confirmed: boolean;
  @ApiPropertyOptional({ nullable: true, type: Date }) lockedUntil: Date | null;
  @ApiProperty() twoFactorEnabled: boolean;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class UserEnvelopeDto {
  @ApiProperty({ type: UserDto }) data: UserDto;
}

export class UserSandboxesDto {
  @ApiProperty({
    type: 'object',
    properties: { userId: { type: 'integer' }, sandboxIds: { type: 'array', items: { type: 'integer' } } },
    required: ['userId', 'sandboxIds'],
    example: { userId: 4, sandboxIds: [1, 2] },
  })
  data: { userId: number; sandboxIds: number[] };
}
