import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsDateTimeText } from '../../../common/validation/datetime';
import { RESOURCES } from '../../../access/permissions';

export class ResourcePermissionDto {
  @ApiProperty({ enum: RESOURCES, example: 'units' })
  @IsIn(RESOURCES)
  resourceName: string;

  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() canCreate?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() canRead?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() canUpdate?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() canDelete?: boolean;
}

export class CreateApiTokenDto {
  @ApiProperty({ example: 'ERP integration' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ example: '2030-01-01T00:00:00Z', description: 'ISO 8601; no expiry when absent' })
  @IsOptional()
  @IsDateTimeText()
  expiresAt?: string;

  @ApiPropertyOptional({ default: false, description: 'Acts with the creator’s role and permissions' })
  @IsOptional()
  @IsBoolean()
  isFullAccess?: boolean;

  @ApiPropertyOptional({ type: [ResourcePermissionDto], description: 'Used when isFullAccess is false' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => ResourcePermissionDto)
  permissions?: ResourcePermissionDto[];
}

export class ApiTokenDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ example: 'svc_AbC1', description: 'First characters of the value' }) tokenPreview: string;
  @ApiProperty() isFullAccess: boolean;
  @ApiProperty({ type: [ResourcePermissionDto] }) permissions: ResourcePermissionDto[];
  @ApiPropertyOptional({ nullable: true, type: Date }) expiresAt: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) revokedAt: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) lastUsedAt: Date | null;
  @ApiProperty() createdById: number;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiProperty() createdAt: Date;
}

export class CreatedApiTokenDto extends ApiTokenDto {
  @ApiProperty({ example: 'svc_...', description: 'The bearer value, shown only in this answer' })
  token: string;
}

export class CreatedApiTokenEnvelopeDto {
  @ApiProperty({ type: CreatedApiTokenDto }) data: CreatedApiTokenDto;
  @ApiProperty({
    type: 'object',
    properties: { message: { type: 'string' } },
    required: ['message'],
    example: { message: 'Save this token now: it is not shown again' },
  })
  meta: {
    message: string;
  };
}

export class ApiTokenListDto {
  @ApiProperty({ type: [ApiTokenDto] }) data: ApiTokenDto[];
}
