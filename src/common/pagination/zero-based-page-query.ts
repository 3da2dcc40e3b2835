import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Most entries one 0-based page holds. */
export const MAX_ZERO_BASED_PAGE_SIZE = 500;

/**
 * `?page=` (0-based, default 0) and `?size=` (default 50, at most 500): the paging audit tools
 * expect (docs/api-rules.md, Paging). Lists in the 1-based style extend `PageQueryDto`.
 */
export class ZeroBasedPageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, default: 0, description: 'Page number, 0-based' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  page = 0;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_ZERO_BASED_PAGE_SIZE,
    default: 50,
    description: 'Entries per page',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_ZERO_BASED_PAGE_SIZE)
  size = 50;
}
