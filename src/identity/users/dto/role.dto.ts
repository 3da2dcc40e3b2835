import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';

export class UpdateRoleDto {
  @ApiPropertyOptional({
    type: [String],
    example: ['units:read', 'units.update', 'cms.turbines:read'],
    description:
      'Replaces the role’s permissions; `{resource}:{action}` or `{resource}.{action}`, and `cms.{collection}:{action}` for one custom table',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  permissions?: string[];

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class RoleDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['SUPER_ADMIN', 'ADMIN', 'MANAGER', 'OPERATOR', 'VIEWER'] }) type: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ type: [String] }) permissions: string[];
}

export class RoleEnvelopeDto {
  @ApiProperty({ type: RoleDto }) data: RoleDto;
}

export class RoleListDto {
  @ApiProperty({ type: [RoleDto] }) data: RoleDto[];
}
