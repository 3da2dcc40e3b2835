import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export class CreateSandboxDto {
  @ApiProperty({ example: 'Training', description: 'Letters, digits, spaces, hyphens and underscores' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 _-]*$/, {
    message: 'name may contain letters, digits, spaces, hyphens and underscores',
  })
  name: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ default: false, description: 'Copy production rows into the new sandbox' })
  @IsOptional()
  @IsBoolean()
  copyData?: boolean;
}

export class SandboxDto {
  @ApiProperty({ description: 'String in the list; `main` for production', example: '1' }) id: string;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty() slug: string;
  @ApiProperty({ example: 'sandbox_training' }) schemaName: string;
  @ApiProperty() isMain: boolean;
  @ApiPropertyOptional({ nullable: true, type: Date }) createdAt: Date | null;
}
