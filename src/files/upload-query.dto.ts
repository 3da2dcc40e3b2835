import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';

export class UploadQueryDto {
  @ApiPropertyOptional({ description: 'Sub-folder, e.g. invoices/2026', example: 'uploads' })
  @IsOptional()
  @IsString()
  @MaxLength(400)
  folder?: string;
}

export class LinkQueryDto extends UploadQueryDto {
  @ApiPropertyOptional({ description: 'Entity type the files belong to (also accepted as a form field)' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_.:-]{1,100}$/, { message: 'ref must be an entity type name' })
  ref?: string;

  @ApiPropertyOptional({ description: 'Id of the record (also accepted as a form field)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  refId?: number;

  @ApiPropertyOptional({
    description: 'Field of the record holding the files (also accepted as a form field)',
  })
  @IsOptional()
  @Matches(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, { message: 'field must be a field name' })
  field?: string;
}
