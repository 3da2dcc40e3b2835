import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Query of a definition's PUT. */
export class ReplaceContentTypeQueryDto {
  @ApiPropertyOptional({
    minimum: 1,
    description:
      'Only when the PUT moves a type that has records into company scope (ADMIN and above): the company those records go to',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2147483647)
  companyId?: number;
}
