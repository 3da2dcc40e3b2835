import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** `?page=` (1-based) and `?pageSize=` of the list endpoints. */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page = 1;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 25 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  pageSize = 25;
}

export interface Paged<T> {
  data: T[];
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } };
}

/** The list envelope of DECISIONS.md. */
export function paged<T>(data: T[], total: number, page: number, pageSize: number): Paged<T> {
  return { data, meta: { pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } } };
}
